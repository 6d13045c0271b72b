// Runs a package's judge (checker or validator) on many cases in one sandboxed process.
//
// The judge's source is compiled with -Dmain=adequacy_judge_main and linked with this file.
// For every case this process forks; the child points stdin, stdout and stderr at the case's
// files, sets its CPU limit and an alarm, and calls the judge's main, whose exit status is the
// verdict. Each case gets a fresh copy of the state the judge had before its main ran, so
// nothing crosses from one case to the next, and no program is executed (the sandbox forbids
// it). Written for spec-adequacy; not derived from any judge system's code.
//
// usage: driver MODE N CPU_SECONDS WALL_SECONDS
//   MODE validator or solution: the program reads I.in on stdin
//   MODE checker: the judge runs as `judge I.in I.out I.ans`
// (files in the working folder; the child's stdout and stderr go to I.stdout and I.stderr)
// prints one line per case: "I exit CODE" | "I signal NUM" | "I timeout"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int adequacy_judge_main(int argc, char** argv) __attribute__((weak));
int adequacy_judge_main() __attribute__((weak));

static void redirect(const std::string& path, int fd, int flags) {
    int f = open(path.c_str(), flags, 0600);
    if (f < 0) _exit(125);
    if (dup2(f, fd) < 0) _exit(125);
    close(f);
}

int main(int argc, char** argv) {
    if (argc != 5) return 126;
    std::string mode = argv[1];
    int n = atoi(argv[2]);
    int cpu = atoi(argv[3]);
    int wall = atoi(argv[4]);
    for (int i = 0; i < n; i++) {
        std::string stem = std::to_string(i);
        std::string input = stem + ".in", output = stem + ".out", answer = stem + ".ans";
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            printf("%d signal 0\n", i);
            continue;
        }
        if (pid == 0) {
            struct rlimit r;
            r.rlim_cur = r.rlim_max = (rlim_t)cpu;
            setrlimit(RLIMIT_CPU, &r);
            alarm((unsigned)wall);
            redirect(input, 0, O_RDONLY);
            redirect(stem + ".stdout", 1, O_WRONLY | O_CREAT | O_TRUNC);
            redirect(stem + ".stderr", 2, O_WRONLY | O_CREAT | O_TRUNC);
            int (*with_args)(int, char**) = adequacy_judge_main;
            int (*without_args)() = adequacy_judge_main;
            if (!with_args && !without_args) _exit(124);
            int code;
            if (mode == "checker") {
                char* args[] = {(char*)"check", (char*)input.c_str(), (char*)output.c_str(),
                                (char*)answer.c_str(), nullptr};
                code = with_args ? with_args(4, args) : without_args();
            } else {
                char* args[] = {(char*)"validator", nullptr};
                code = with_args ? with_args(1, args) : without_args();
            }
            exit(code);
        }
        int status = 0;
        while (waitpid(pid, &status, 0) < 0) {
        }
        if (WIFEXITED(status)) {
            printf("%d exit %d\n", i, WEXITSTATUS(status));
        } else if (WIFSIGNALED(status)) {
            int s = WTERMSIG(status);
            if (s == SIGALRM || s == SIGXCPU || s == SIGKILL)
                printf("%d timeout\n", i);
            else
                printf("%d signal %d\n", i, s);
        }
    }
    fflush(stdout);
    return 0;
}
