// A minimal testlib.h written for spec-adequacy's sample packages.
//
// It follows testlib's conventions (the names validators and checkers call, and the exit
// codes: 0 ok, 1 wrong answer, 2 presentation error, 3 fail) but is our own small code, not
// the real testlib: integers, tokens, spaces, line ends and end of file; strict reading for
// validators, whitespace-skipping for checkers.
#ifndef ADEQUACY_MINI_TESTLIB_H
#define ADEQUACY_MINI_TESTLIB_H

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3 };

[[noreturn]] inline void quit(TResult r, const std::string& msg) {
    const char* word = r == _ok ? "ok" : r == _wa ? "wrong answer" : r == _pe ? "wrong output format" : "FAIL";
    std::fprintf(stderr, "%s %s\n", word, msg.c_str());
    std::exit(static_cast<int>(r));
}

[[noreturn]] inline void quitf(TResult r, const char* fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    quit(r, buf);
}

struct InStream {
    std::string data;
    size_t pos = 0;
    bool strict = false;
    TResult onError = _fail;

    void open(const char* path, TResult err, bool strictMode) {
        onError = err;
        strict = strictMode;
        FILE* f = path ? std::fopen(path, "rb") : stdin;
        if (!f) quitf(_fail, "cannot open %s", path);
        char buf[65536];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
        if (path) std::fclose(f);
    }

    [[noreturn]] void fail(const std::string& msg) { quit(onError, msg); }

    void skipBlanks() {
        if (strict) return;
        while (pos < data.size() && std::isspace(static_cast<unsigned char>(data[pos]))) pos++;
    }

    // Like testlib's readToken()/readWord() without a pattern (testlib's one-argument form
    // takes a pattern, which this minimal library does not implement, so it is not offered).
    std::string readToken() { return readRaw("a token"); }

    std::string readWord() { return readRaw("a word"); }

    std::string readRaw(const char* what) {
        skipBlanks();
        size_t start = pos;
        while (pos < data.size() && !std::isspace(static_cast<unsigned char>(data[pos]))) pos++;
        if (start == pos) fail(std::string("expected ") + what + ", found " + (pos < data.size() ? "a blank" : "end of file"));
        return data.substr(start, pos - start);
    }

    long long readLong(long long lo, long long hi, const char* name = "integer") {
        std::string t = readRaw(name);
        size_t i = (t[0] == '-') ? 1 : 0;
        if (i == t.size() || t.size() > 20) fail(std::string(name) + ": not an integer: " + t);
        for (size_t k = i; k < t.size(); k++)
            if (!std::isdigit(static_cast<unsigned char>(t[k]))) fail(std::string(name) + ": not an integer: " + t);
        if (strict && ((t[i] == '0' && t.size() > i + 1) || t == "-0")) fail(std::string(name) + ": leading zero or -0: " + t);
        errno = 0;
        long long v = std::strtoll(t.c_str(), nullptr, 10);
        if (errno == ERANGE) fail(std::string(name) + ": out of range: " + t);
        if (v < lo || v > hi) fail(std::string(name) + " = " + t + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return v;
    }

    int readInt(int lo, int hi, const char* name = "integer") { return static_cast<int>(readLong(lo, hi, name)); }

    void readChar(char c, const char* what) {
        if (pos >= data.size() || data[pos] != c) fail(std::string("expected ") + what);
        pos++;
    }

    void readSpace() { if (strict) readChar(' ', "a space"); }
    void readEoln() { if (strict) readChar('\n', "a line end"); }

    bool seekEof() {
        size_t p = pos;
        while (p < data.size() && std::isspace(static_cast<unsigned char>(data[p]))) p++;
        return p >= data.size();
    }

    // As in testlib, exactly at the end (blanks are not skipped): checkers ask seekEof().
    void readEof() {
        if (pos != data.size()) fail("expected end of file");
    }
};

inline InStream inf, ouf, ans;

inline void registerValidation(int, char**) { inf.open(nullptr, _fail, true); }

inline void registerValidation() { inf.open(nullptr, _fail, true); }

inline void registerTestlibCmd(int argc, char** argv) {
    if (argc < 4) quitf(_fail, "usage: checker input output answer");
    inf.open(argv[1], _fail, false);
    ouf.open(argv[2], _pe, false);
    ans.open(argv[3], _fail, false);
}

#define ensuref(cond, ...) do { if (!(cond)) quitf(_fail, __VA_ARGS__); } while (0)

#endif
