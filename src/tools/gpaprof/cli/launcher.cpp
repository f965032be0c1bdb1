#include "tools/gpaprof/cli/launcher.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gpaprof::cli {
namespace {

volatile sig_atomic_t g_child = 0;

void ForwardSignal(int signal) {
    if (g_child > 0) kill(static_cast<pid_t>(g_child), signal);
}

bool Executable(const std::string& path) {
    struct stat info;
    return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::map<std::string, std::string> CurrentEnvironment() {
    std::map<std::string, std::string> environment;
    for (char** entry = environ; entry && *entry; ++entry) {
        const char* equals = std::strchr(*entry, '=');
        if (!equals) continue;
        environment[std::string(*entry, static_cast<size_t>(equals - *entry))] = equals + 1;
    }
    return environment;
}

std::string ResolveExecutable(const std::string& command, const std::string& workingDirectory, std::string* problem) {
    if (command.find('/') != std::string::npos) {
        std::string path = command;
        if (command[0] != '/' && !workingDirectory.empty()) path = workingDirectory + "/" + command;
        if (!Executable(path)) {
            *problem = access(path.c_str(), F_OK) == 0 ? path + " is not an executable file" : path + " does not exist";
            return {};
        }
        return path;
    }
    const char* searchPath = std::getenv("PATH");
    std::string directories = searchPath ? searchPath : "/usr/local/bin:/usr/bin:/bin";
    size_t begin = 0;
    while (begin <= directories.size()) {
        size_t end = directories.find(':', begin);
        if (end == std::string::npos) end = directories.size();
        std::string directory = directories.substr(begin, end - begin);
        if (directory.empty()) directory = ".";
        const std::string candidate = directory + "/" + command;
        if (Executable(candidate)) return candidate;
        begin = end + 1;
    }
    *problem = command + " was not found in PATH";
    return {};
}

LaunchResult RunApplication(const std::vector<std::string>& command, const std::map<std::string, std::string>& environment,
                            const std::string& workingDirectory) {
    LaunchResult result;
    std::string problem;
    const std::string executable = ResolveExecutable(command.at(0), workingDirectory, &problem);
    if (executable.empty()) {
        result.problem = problem;
        result.exitCode = 127;
        return result;
    }
    std::vector<std::string> environmentEntries;
    for (const auto& [name, value] : environment) environmentEntries.push_back(name + "=" + value);
    std::vector<char*> envp;
    for (std::string& entry : environmentEntries) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<std::string> arguments = command;
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);

    // The child reports a failed exec through this pipe; it closes on a successful exec.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        result.problem = std::string("pipe: ") + std::strerror(errno);
        result.exitCode = 127;
        return result;
    }
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child < 0) {
        result.problem = std::string("fork: ") + std::strerror(errno);
        result.exitCode = 127;
        close(report[0]);
        close(report[1]);
        return result;
    }
    if (child == 0) {
        close(report[0]);
        if (!workingDirectory.empty() && chdir(workingDirectory.c_str()) != 0) {
            const int error = errno;
            ssize_t ignored = write(report[1], &error, sizeof error);
            (void)ignored;
            _exit(127);
        }
        execve(executable.c_str(), argv.data(), envp.data());
        const int error = errno;
        ssize_t ignored = write(report[1], &error, sizeof error);
        (void)ignored;
        _exit(error == EACCES ? 126 : 127);
    }
    close(report[1]);
    g_child = child;
    struct sigaction ignore {}, forward {}, oldInt {}, oldQuit {}, oldTerm {}, oldHup {};
    ignore.sa_handler = SIG_IGN;
    forward.sa_handler = ForwardSignal;
    sigemptyset(&ignore.sa_mask);
    sigemptyset(&forward.sa_mask);
    sigaction(SIGINT, &ignore, &oldInt);
    sigaction(SIGQUIT, &ignore, &oldQuit);
    sigaction(SIGTERM, &forward, &oldTerm);
    sigaction(SIGHUP, &forward, &oldHup);

    int execError = 0;
    ssize_t got;
    do {
        got = read(report[0], &execError, sizeof execError);
    } while (got < 0 && errno == EINTR);
    close(report[0]);

    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) break;
    }
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
    sigaction(SIGHUP, &oldHup, nullptr);
    g_child = 0;

    result.pid = child;
    if (got == static_cast<ssize_t>(sizeof execError)) {
        result.problem = "cannot run " + executable + ": " + std::strerror(execError);
        result.exitCode = execError == EACCES ? 126 : 127;
        return result;
    }
    result.started = true;
    if (WIFSIGNALED(status)) {
        result.signaled = true;
        result.signal = WTERMSIG(status);
        result.coreDumped = WCOREDUMP(status);
        result.exitCode = 128 + result.signal;
    } else if (WIFEXITED(status)) {
        result.exitCode = WEXITSTATUS(status);
    }
    return result;
}

}  // namespace gpaprof::cli
