#include "tools/gpaprof/spool/symbol_resolver.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <tuple>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/gpaprof/files/text_fields.h"

extern char** environ;

namespace gpaprof {
namespace {

// Runs `program args...` with stdin from `input` and returns its stdout; nullopt when it cannot run.
std::optional<std::string> RunWithInput(const std::string& program, const std::vector<std::string>& args,
                                        const std::string& input) {
    char inputPath[] = "/tmp/gpaprof-addr2line-XXXXXX";
    const int inputFd = mkstemp(inputPath);
    if (inputFd < 0) return std::nullopt;
    unlink(inputPath);
    if (write(inputFd, input.data(), input.size()) != static_cast<ssize_t>(input.size())) {
        close(inputFd);
        return std::nullopt;
    }
    lseek(inputFd, 0, SEEK_SET);
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) {
        close(inputFd);
        return std::nullopt;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, inputFd, 0);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t child = 0;
    const int spawned = posix_spawnp(&child, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(inputFd);
    close(pipeFds[1]);
    if (spawned != 0) {
        close(pipeFds[0]);
        return std::nullopt;
    }
    std::string output;
    char buffer[65536];
    ssize_t got;
    while ((got = read(pipeFds[0], buffer, sizeof buffer)) > 0 || (got < 0 && errno == EINTR)) {
        if (got > 0) output.append(buffer, static_cast<size_t>(got));
    }
    close(pipeFds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    return output;
}

}  // namespace

std::optional<bool> IsPositionIndependent(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char header[18];
    if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return std::nullopt;
    if (std::memcmp(header, "\x7f" "ELF", 4) != 0) return std::nullopt;
    const bool littleEndian = header[5] == 1;
    const unsigned type = littleEndian ? (header[16] | (header[17] << 8)) : ((header[16] << 8) | header[17]);
    if (type == 3) return true;   // ET_DYN
    if (type == 2) return false;  // ET_EXEC
    return std::nullopt;
}

std::map<std::pair<std::string, uint64_t>, ResolvedAddress> Addr2LineResolver::Resolve(
    const std::vector<std::tuple<std::string, uint64_t, uint64_t>>& moduleAddressBase) {
    std::map<std::pair<std::string, uint64_t>, ResolvedAddress> resolved;
    std::map<std::string, std::set<std::pair<uint64_t, uint64_t>>> byModule;
    for (const auto& [module, address, base] : moduleAddressBase) byModule[module].insert({address, base});

    const char* custom = std::getenv("GPAPROF_ADDR2LINE");
    const std::string program = custom && *custom ? custom : "addr2line";
    for (const auto& [module, addresses] : byModule) {
        std::optional<bool> pie = IsPositionIndependent(module);
        if (!pie) continue;
        std::vector<std::pair<uint64_t, uint64_t>> ordered(addresses.begin(), addresses.end());
        std::string input;
        for (const auto& [address, base] : ordered) {
            // A return address points after the call; one byte back is inside the calling instruction.
            const uint64_t lookup = (*pie ? address - base : address) - 1;
            char line[32];
            std::snprintf(line, sizeof line, "0x%" PRIx64 "\n", lookup);
            input += line;
        }
        std::optional<std::string> output = RunWithInput(program, {"-C", "-f", "-e", module}, input);
        if (!output) {
            problem_ = "could not run " + program + " (install binutils for file and line information)";
            continue;
        }
        std::vector<std::string_view> lines = SplitLines(*output);
        for (size_t i = 0; i < ordered.size() && 2 * i + 1 < lines.size(); ++i) {
            ResolvedAddress result;
            const std::string_view function = lines[2 * i];
            if (function != "??") result.function = std::string(function);
            std::string_view location = lines[2 * i + 1];
            const size_t discriminator = location.find(" (discriminator");
            if (discriminator != std::string_view::npos) location = location.substr(0, discriminator);
            const size_t colon = location.rfind(':');
            if (colon != std::string_view::npos) {
                const std::string_view file = location.substr(0, colon);
                std::optional<uint64_t> number = ParseUnsigned(location.substr(colon + 1));
                if (file != "??" && number && *number > 0) {
                    result.file = std::string(file);
                    result.line = number;
                }
            }
            resolved[{module, ordered[i].first}] = result;
        }
    }
    return resolved;
}

}  // namespace gpaprof
