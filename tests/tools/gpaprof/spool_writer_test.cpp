// The agent's spool writer: records appended by many threads at once through the file mapping are each in the
// file once and whole, across the steps in which the file grows; a later writer of the same file (the same
// process id after exec) appends after the first, one at the same time is refused; a forked child forgets its
// parent's file; and gpaprof reads a spool with the zeros the writer leaves (a record cut short by the death of
// its writer, the unused end).
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "tools/gpaprof/agent/spool_writer.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/spool/spool_assembler.h"

namespace gpaprof {
namespace {

class SpoolWriterTest : public ::testing::Test {
protected:
    void SetUp() override {
        char directory[] = "/tmp/gpaprof-spool-writer-XXXXXX";
        ASSERT_NE(mkdtemp(directory), nullptr);
        directory_ = directory;
        path_ = directory_ + "/1.spool";
    }
    void TearDown() override {
        unlink(path_.c_str());
        unlink((directory_ + "/2.spool").c_str());
        rmdir(directory_.c_str());
    }
    // The file's lines up to its last newline; fails on a NUL byte before it.
    std::vector<std::string> Lines() {
        std::string text = ReadTextFile(path_, nullptr).value_or("");
        const size_t end = text.rfind('\n');
        text.resize(end == std::string::npos ? 0 : end + 1);
        EXPECT_EQ(text.find('\0'), std::string::npos) << "a NUL byte among the records";
        std::vector<std::string> lines;
        size_t begin = 0;
        while (begin < text.size()) {
            const size_t newline = text.find('\n', begin);
            lines.push_back(text.substr(begin, newline - begin));
            begin = newline + 1;
        }
        return lines;
    }
    std::string directory_;
    std::string path_;
};

std::string Line(int thread, int index) {
    // Lengths from a few bytes to several KiB, so that appends cross the steps the file grows in.
    const size_t padding = static_cast<size_t>((index * 7919 + thread * 104729) % (index % 97 == 0 ? 9000 : 300));
    return "T\t" + std::to_string(thread) + "\t" + std::to_string(index) + "\t" + std::string(padding, 'x') + "\n";
}

TEST_F(SpoolWriterTest, ThreadsAppendingAtOnceLeaveEveryRecordOnceAndWhole) {
    agent::SpoolWriter writer;
    ASSERT_TRUE(writer.Open(path_));
    constexpr int kThreads = 8, kLines = 6000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&writer, t] {
            for (int i = 0; i < kLines; ++i) {
                if (i % 10 == 8) {
                    std::string batch = Line(t, i) + Line(t, i + 1);  // two records at once
                    writer.Append(batch);
                    ++i;
                } else {
                    writer.Append(Line(t, i));
                }
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    const std::vector<std::string> lines = Lines();
    ASSERT_EQ(lines.size(), static_cast<size_t>(kThreads * kLines));
    std::set<std::string> seen(lines.begin(), lines.end());
    EXPECT_EQ(seen.size(), lines.size());
    for (int t = 0; t < kThreads; ++t) {
        for (int i = 0; i < kLines; ++i) {
            std::string expected = Line(t, i);
            expected.pop_back();
            EXPECT_TRUE(seen.count(expected)) << "thread " << t << " line " << i;
        }
    }
}

// The writer's thread makes the file's pages ahead of the appends (so that an append does not fault), and the
// records stay whole while it does.
TEST_F(SpoolWriterTest, PagesAreMadeAheadOfTheAppendsAndRecordsStayWhole) {
    agent::SpoolWriter writer;
    ASSERT_TRUE(writer.Open(path_));
    EXPECT_EQ(writer.PagesMadeUpTo(), 0u);
    uint64_t appended = 0;
    for (int i = 0; i < 20000; ++i) {
        const std::string line = Line(0, i);
        writer.Append(line);
        appended += line.size();
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (writer.PagesMadeUpTo() <= appended && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_GT(writer.PagesMadeUpTo(), appended) << "the pages after the last append were not made ahead";
    const std::vector<std::string> lines = Lines();
    ASSERT_EQ(lines.size(), 20000u);
    for (int i = 0; i < 20000; ++i) {
        std::string expected = Line(0, i);
        expected.pop_back();
        ASSERT_EQ(lines[static_cast<size_t>(i)], expected) << "line " << i;
    }
}

TEST_F(SpoolWriterTest, SignalHandlerAppendsAndASecondWriterOfTheFileAppendsAfterTheFirst) {
    {
        agent::SpoolWriter first;
        ASSERT_TRUE(first.Open(path_));
        first.Append("N\tfirst\n");
        const std::string signal = "X\tsignal\t3\t11\t1\t0\n";
        first.AppendFromSignalHandler(signal.data(), signal.size());
    }
    agent::SpoolWriter second;  // e.g. the program the process exec'd
    ASSERT_TRUE(second.Open(path_));
    second.Append("N\tsecond\n");
    std::string text = ReadTextFile(path_, nullptr).value_or("");
    AssemblyOptions options;
    options.trace = true;
    const AssembledProcess assembled = AssembleSpool(text, options, nullptr);
    EXPECT_EQ(assembled.notes, (std::vector<std::string>{"first", "second"}));
    EXPECT_EQ(assembled.badRecords, 0u);
    ASSERT_TRUE(assembled.signal.has_value());
    EXPECT_EQ(assembled.signal->values, (std::vector<std::string>{"11", "1", "0"}));
}

// A process of the same id in another PID namespace must not write the same file (their records' places
// would collide): the second writer is refused while the first has the file open.
TEST_F(SpoolWriterTest, SecondWriterWhileTheFirstIsOpenIsRefused) {
    agent::SpoolWriter first;
    ASSERT_TRUE(first.Open(path_));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        agent::SpoolWriter second;  // another process, its own open file
        const bool opened = second.Open(path_);
        _exit(!opened && errno == EWOULDBLOCK ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_F(SpoolWriterTest, ForkedChildForgetsItsParentsFile) {
    agent::SpoolWriter writer;
    ASSERT_TRUE(writer.Open(path_));
    writer.Append("N\tparent\n");
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        writer.ForgetAfterFork();
        writer.Append("N\tlost\n");  // no file: nothing written
        const bool opened = writer.Open(directory_ + "/2.spool");
        writer.Append("N\tchild\n");
        _exit(opened ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    writer.Append("N\tparent again\n");
    EXPECT_EQ(Lines(), (std::vector<std::string>{"N\tparent", "N\tparent again"}));
    path_ = directory_ + "/2.spool";
    EXPECT_EQ(Lines(), (std::vector<std::string>{"N\tchild"}));
    path_ = directory_ + "/1.spool";
}

// What a killed writer leaves: a record cut short, zeros where it would have ended, then the records other
// threads wrote; and zeros after the last record.
TEST(SpoolWithZeros, RecordsAfterZerosAreReadAndTheCutRecordIsNot) {
    std::string text = "N\tone\n";
    text += "N\tcut sh";
    text += std::string(40, '\0');
    text += "N\ttwo\n";
    text += std::string(4096, '\0');
    AssemblyOptions options;
    options.trace = true;
    const AssembledProcess assembled = AssembleSpool(text, options, nullptr);
    EXPECT_EQ(assembled.notes, (std::vector<std::string>{"one", "two"}));
    EXPECT_EQ(assembled.badRecords, 0u);
}

}  // namespace
}  // namespace gpaprof
