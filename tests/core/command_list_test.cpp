// OGPA_SetCommandList on a library whose API has no command lists (the scripted backend stands for OpenCL
// and CUDA): each documented status. Its Vulkan behaviour is tested in tests/backends/vulkan.
#include "gpa_test_fixture.h"

namespace {

class CommandList : public gpa_test::GpaTest {};

TEST_F(CommandList, NeedsAnOpenContext) {
    int list = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, OGPA_SetCommandList(&list));
}

TEST_F(CommandList, NullIsRefused) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, OGPA_SetCommandList(nullptr));
}

TEST_F(CommandList, ApisWithoutCommandListsRefuseIt) {
    Open();
    int list = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, OGPA_SetCommandList(&list));
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("no command lists"), std::string::npos);
}

}  // namespace
