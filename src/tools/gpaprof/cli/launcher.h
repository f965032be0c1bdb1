// Starts the application with its environment, waits for it, and says how it ended. While the application
// runs, gpaprof ignores the terminal's SIGINT and SIGQUIT (they reach the application, which is in the
// same process group) and forwards SIGTERM and SIGHUP to it, so that gpaprof is still there to write the
// files when the application has ended.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <sys/types.h>

namespace gpaprof::cli {

struct LaunchResult {
    bool started = false;
    std::string problem;    // why it did not start
    pid_t pid = 0;
    bool signaled = false;
    int signal = 0;
    bool coreDumped = false;
    int exitCode = 0;       // the application's code, or 128+signal
};

// The command's executable as execvp would find it; empty with the reason when there is none.
std::string ResolveExecutable(const std::string& command, const std::string& workingDirectory, std::string* problem);

LaunchResult RunApplication(const std::vector<std::string>& command, const std::map<std::string, std::string>& environment,
                            const std::string& workingDirectory);

// The current environment as a map.
std::map<std::string, std::string> CurrentEnvironment();

}  // namespace gpaprof::cli
