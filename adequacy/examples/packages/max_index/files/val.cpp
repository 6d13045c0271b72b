// Validator of max_index: n (1..100) on its own line, then n integers in [-10^9, 10^9]
// separated by single spaces, then a line end and nothing else.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerValidation(argc, argv);
    int n = inf.readInt(1, 100, "n");
    inf.readEoln();
    for (int i = 0; i < n; i++) {
        if (i > 0) inf.readSpace();
        inf.readLong(-1000000000LL, 1000000000LL, "a_i");
    }
    inf.readEoln();
    inf.readEof();
    return 0;
}
