// Generator (kept as Polygon packages keep theirs; the importer reads the generated tests).
#include <cstdio>
#include <cstdlib>
int main(int argc, char* argv[]) {
    if (argc < 4) return 1;
    std::printf("%d %d\n", std::atoi(argv[2]), std::atoi(argv[3]));
    return 0;
}
