// What gpaprof's end-to-end tests share (OpenCL: end_to_end_test.cpp, CUDA: cuda/cuda_end_to_end_test.cpp):
// running a command in a scratch directory with its output captured, and a fixture that owns the directory
// and reads the three files back with gpaprof's readers in strict mode.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"

namespace gpaprof::testing {

struct Outcome {
    int exitCode = -1;  // as a shell reports it: 128 + N when killed by signal N
    std::string out;
    std::string err;
};

inline std::string ReadAll(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs `command` (looked up on PATH when it has no '/') in `directory` with stdout and stderr in files there.
inline Outcome Execute(const std::vector<std::string>& command, const std::string& directory,
                       const std::map<std::string, std::string>& extraEnvironment = {}) {
    const std::string outPath = directory + "/stdout.txt";
    const std::string errPath = directory + "/stderr.txt";
    const pid_t child = fork();
    if (child == 0) {
        const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, 1);
        dup2(err, 2);
        if (chdir(directory.c_str()) != 0) _exit(126);
        for (const auto& [name, value] : extraEnvironment) setenv(name.c_str(), value.c_str(), 1);
        // Sanitizer builds: let the crash tests die of their signal instead of ASan's report.
        const char* asan = getenv("ASAN_OPTIONS");
        setenv("ASAN_OPTIONS", (std::string(asan ? asan : "") + ":handle_segv=0:handle_abort=0").c_str(), 1);
        std::vector<char*> argv;
        for (const std::string& part : command) argv.push_back(const_cast<char*>(part.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    Outcome outcome;
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    outcome.out = ReadAll(outPath);
    outcome.err = ReadAll(errPath);
    return outcome;
}

// A scratch directory per test (kept, and named on stderr, when the test fails) and the files in it.
class ProfiledRunTest : public ::testing::Test {
protected:
    // Call from SetUp once the test is known to run.
    void MakeDirectory(const char* prefix) {
        std::string pattern = std::string("/tmp/") + prefix + "-XXXXXX";
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        directory_ = pattern;
    }
    void TearDown() override {
        if (directory_.empty()) return;
        if (HasFailure()) {
            std::fprintf(stderr, "files kept in %s\n", directory_.c_str());
        } else {
            std::filesystem::remove_all(directory_);
        }
    }
    std::string Path(const std::string& name) const { return directory_ + "/" + name; }

    CsvFile ReadCsv(const std::string& name) {
        Parsed<CsvFile> parsed = ReadCsvFile(Path(name), {true});
        EXPECT_TRUE(parsed.ok()) << name << ":\n" << parsed.Describe();
        return parsed.file;
    }
    AtpFile ReadAtp(const std::string& name) {
        Parsed<AtpFile> parsed = ReadAtpFile(Path(name), {true});
        EXPECT_TRUE(parsed.ok()) << name << ":\n" << parsed.Describe();
        return parsed.file;
    }
    OccupancyFile ReadOccupancy(const std::string& name) {
        Parsed<OccupancyFile> parsed = ReadOccupancyFile(Path(name), {true});
        EXPECT_TRUE(parsed.ok()) << name << ":\n" << parsed.Describe();
        return parsed.file;
    }

    std::string directory_;
};

}  // namespace gpaprof::testing
