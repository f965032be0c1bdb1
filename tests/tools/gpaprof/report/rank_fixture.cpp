#include "rank_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include <stdlib.h>

#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/file_io.h"

namespace gpaprof::report::testing {

AtpFile RankFixture(uint64_t offset, uint64_t extra) {
    const std::string queue = "0x0000000000000A01";
    auto kernel = [&](uint64_t start, uint64_t end, uint64_t deviceStart, uint64_t deviceEnd, const std::string& name) {
        return Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS", {"q", "k", "1", "NULL", "{64}", "{64}", "0", "NULL", "NULL"},
                                   offset + start, offset + end),
                              0x11F0, "CL_COMMAND_NDRANGE_KERNEL", offset + deviceStart, offset + deviceEnd, 1, queue),
                      "0x0000000000000F01", name, {64}, {64});
    };
    ApiCall write = Enqueue(Call("clEnqueueWriteBuffer", "CL_SUCCESS", {"q", "b", "CL_FALSE", "0", "4096", "0x1", "0", "NULL", "NULL"},
                                 offset + 500, offset + 600),
                            0x11F4, "CL_COMMAND_WRITE_BUFFER", offset + 10000, offset + 10500, 1, queue);
    write.transferSize = 4096;
    std::vector<ApiCall> calls = {
        kernel(100, 200, 1000, 3000, "compute"),
        kernel(300, 400, 3500, 9500, kRankNcclKernel),
        write,
        kernel(700, 800, 12000, 13000 + extra, "compute"),
        Call("clFinish", "CL_SUCCESS", {"q"}, offset + 900, offset + 13100 + extra),
    };
    return SingleThreadTrace(std::move(calls));
}

ScratchFolder::ScratchFolder() {
    char pattern[] = "/tmp/gpaprof-ranks-test-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string ScratchFolder::Write(const std::string& name, const AtpFile& trace) const {
    std::string error;
    EXPECT_TRUE(WriteAtpFile(File(name), trace, &error)) << error;
    return File(name);
}

std::string ScratchFolder::WriteText(const std::string& name, const std::string& text) const {
    std::string error;
    EXPECT_TRUE(WriteTextFile(File(name), text, &error)) << error;
    return File(name);
}

}  // namespace gpaprof::report::testing
