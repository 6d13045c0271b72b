// Token-by-token comparison, the job of Polygon's standard wcmp checker (our own code).
#include <string>

#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int n = 0;
    while (!ans.seekEof()) {
        std::string j = ans.readToken();
        if (ouf.seekEof()) quitf(_wa, "answer too short: %d tokens", n);
        std::string p = ouf.readToken();
        n++;
        if (j != p) quitf(_wa, "token %d differs: expected '%s', found '%s'", n, j.c_str(), p.c_str());
    }
    if (!ouf.seekEof()) quitf(_wa, "extra tokens after %d", n);
    quitf(_ok, "%d tokens", n);
}
