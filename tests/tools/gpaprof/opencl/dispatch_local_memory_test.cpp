// The LocalMemSize of an OpenCL dispatch: the driver's CL_KERNEL_LOCAL_MEM_SIZE, with the __local arguments added
// where the driver evidently left them out (PoCL 5).
#include "tools/gpaprof/opencl/dispatch_local_memory.h"

#include <gtest/gtest.h>

namespace gpaprof::ocl {
namespace {

TEST(DispatchLocalMemory, ADriverThatIncludesTheArgumentsIsReportedAsItIs) {
    EXPECT_EQ(DispatchLocalMemory(256, 256), 256u);        // arguments only (PoCL 3, NVIDIA)
    EXPECT_EQ(DispatchLocalMemory(1024 + 256, 256), 1280u);  // the kernel's own variables and an argument
    EXPECT_EQ(DispatchLocalMemory(4096, 0), 4096u);          // no __local argument
    EXPECT_EQ(DispatchLocalMemory(0, 0), 0u);
}

TEST(DispatchLocalMemory, ArgumentsADriverLeftOutAreAdded) {
    EXPECT_EQ(DispatchLocalMemory(0, 256), 256u);        // PoCL 5: a kernel whose local memory is one argument
    EXPECT_EQ(DispatchLocalMemory(128, 512), 640u);      // its own 128 bytes reported, the arguments not
}

}  // namespace
}  // namespace gpaprof::ocl
