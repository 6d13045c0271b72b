// Main solution of max_index: the first index of a maximum.
#include <cstdio>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    long long best = 0;
    int at = 0;
    for (int i = 1; i <= n; i++) {
        long long x;
        if (std::scanf("%lld", &x) != 1) return 1;
        if (i == 1 || x > best) {
            best = x;
            at = i;
        }
    }
    std::printf("%d\n", at);
    return 0;
}
