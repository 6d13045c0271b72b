// Checker of max_index: any 1-based index of a maximum element is a correct answer.
#include <climits>
#include <vector>

#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt(1, 100, "n");
    std::vector<long long> a(n);
    long long best = LLONG_MIN;
    for (int i = 0; i < n; i++) {
        a[i] = inf.readLong(-1000000000LL, 1000000000LL, "a_i");
        if (a[i] > best) best = a[i];
    }
    long long j = ans.readLong(1LL, static_cast<long long>(n), "jury answer");
    if (a[j - 1] != best) quitf(_fail, "the jury's index %lld is not a maximum", j);
    long long k = ouf.readLong(LLONG_MIN, LLONG_MAX, "k");
    if (!ouf.seekEof()) quitf(_pe, "extra data after the index");
    if (k < 1 || k > n) quitf(_wa, "index %lld is outside 1..%d", k, n);
    if (a[k - 1] != best) quitf(_wa, "a[%lld] = %lld is not the maximum %lld", k, a[k - 1], best);
    quitf(_ok, "index %lld holds the maximum", k);
}
