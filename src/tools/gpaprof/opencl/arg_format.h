// Builds the parameter list of one API line: handles in hex, enumerations by name, structures in {a,b},
// values written through out-pointers in [v] (after the call), strings in double quotes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/gpaprof/opencl/cl_headers.h"
#include "tools/gpaprof/opencl/cl_names.h"

namespace gpaprof::ocl {

std::string HandleText(const void* handle);     // NULL or 0x...
std::string QuotedText(const char* text, size_t maxLength = 96);

class Args {
public:
    Args& Handle(const void* handle);
    Args& Unsigned(uint64_t value);
    Args& Signed(int64_t value);
    Args& Bool(cl_bool value);
    Args& Enum(EnumKind kind, uint64_t value);
    Args& Flags(FlagKind kind, uint64_t value);
    Args& String(const char* text);
    Args& Text(std::string text);
    Args& Sizes(cl_uint count, const size_t* values);  // {a,b,c} or NULL
    Args& Handles(cl_uint count, const void* const* handles);
    Args& Strings(cl_uint count, const char* const* strings, const size_t* lengths);
    Args& ImageFormat(const cl_image_format* format);
    Args& ImageDesc(const cl_image_desc* desc);
    Args& Properties(EnumKind keys, const intptr_t* properties);  // {KEY,value,...,0}
    Args& Properties64(EnumKind keys, const cl_ulong* properties);
    // Out-pointers, shown with what the call wrote.
    Args& OutError(const cl_int* error);
    Args& OutUnsigned(const cl_uint* value);
    Args& OutSize(const size_t* value);
    Args& OutHandle(const void* const* handle);
    Args& OutHandles(const void* const* handles, cl_uint count);
    // The value an info query wrote: text for string queries, a number for 4- and 8-byte values.
    Args& InfoValue(EnumKind kind, uint64_t param, const void* value, size_t capacity, const size_t* sizeRet,
                    bool succeeded);

    std::vector<std::string> Take() { return std::move(args_); }

private:
    std::vector<std::string> args_;
};

}  // namespace gpaprof::ocl
