// How a CUDA call's arguments and return value are written in the .atp API trace (docs/profiler_files.md,
// "CUDA API trace"). The generated table calls AddArgument once per parameter; AppendArgument picks the format
// from the parameter's C++ type:
//   integers, enumerations      decimal (CUdeviceptr, a device address, in hex); copy kinds and error codes
//                               by name (cudaMemcpyHostToDevice, cudaErrorInvalidValue, CUDA_SUCCESS)
//   handles, pointers           0x-prefixed hex, NULL for a null pointer
//   const char*                 the string in double quotes
//   out-pointers                after a successful call, the value they point at, in [ ]
//                               (e.g. cudaMalloc ( [0x00007F2A40000000];1048576 ))
//   dim3                        {x,y,z}
//   other structs by value      {...}
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "tools/gpaprof/cuda/cuda_api_table.h"

namespace gpaprof::cuda {

enum class ArgStyle { Plain, Hex, Input };

// When the arguments are formatted: out-pointers are read only after a call that succeeded.
struct ArgContext {
    bool succeeded = false;
};

// The arguments of one call as text, in one buffer: no allocation per argument once the buffer has grown (a
// call's arguments are formatted at every traced API call). Views stay valid until the next Clear or Add.
class ArgList {
public:
    void Clear() {
        text_.clear();
        ends_.clear();
    }
    std::string& text() { return text_; }  // the argument being added goes at its end, then End()
    void End() { ends_.push_back(static_cast<uint32_t>(text_.size())); }
    size_t size() const { return ends_.size(); }
    std::string_view operator[](size_t i) const {
        const uint32_t begin = i == 0 ? 0 : ends_[i - 1];
        return std::string_view(text_).substr(begin, ends_[i] - begin);
    }

private:
    std::string text_;
    std::vector<uint32_t> ends_;
};

void AppendHex(std::string* out, uint64_t value);           // 0x%016llX
void AppendPointer(std::string* out, const void* pointer);  // hex, NULL for a null pointer
void AppendQuoted(std::string* out, const char* text);      // at most 256 characters, escaped, NULL for null
std::string HexValue(uint64_t value);
std::string PointerText(const void* pointer);
std::string QuotedString(const char* text);

template <typename T>
void AppendArgument(std::string* out, const T& value, ArgStyle style, const ArgContext& context);

// One argument added to `list` (the generated table calls this once per parameter).
template <typename T>
void AddArgument(ArgList* list, const T& value, ArgStyle style, const ArgContext& context) {
    AppendArgument(&list->text(), value, style, context);
    list->End();
}

template <typename T>
std::string FormatArgument(const T& value, ArgStyle style, const ArgContext& context) {
    std::string text;
    AppendArgument(&text, value, style, context);
    return text;
}

namespace detail {

template <typename T>
void AppendNumber(std::string* out, T value) {
    char text[24];
    const std::to_chars_result result = std::to_chars(text, text + sizeof text, value);
    out->append(text, static_cast<size_t>(result.ptr - text));
}

template <typename T>
void AppendScalar(std::string* out, const T& value, ArgStyle style) {
    if constexpr (std::is_same_v<T, bool>) {
        out->push_back(value ? '1' : '0');
    } else if constexpr (std::is_enum_v<T>) {
        AppendNumber(out, static_cast<long long>(value));
    } else if constexpr (std::is_floating_point_v<T>) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
        out->append(text);
    } else if constexpr (std::is_integral_v<T>) {
        if (style == ArgStyle::Hex) {
            AppendHex(out, static_cast<uint64_t>(value));
        } else if constexpr (std::is_signed_v<T>) {
            AppendNumber(out, static_cast<long long>(value));
        } else {
            AppendNumber(out, static_cast<unsigned long long>(value));
        }
    } else {
        out->push_back('?');
    }
}

}  // namespace detail

// Whether AppendArgument writes a value of type T without reading memory it points at: then the text is a
// function of the value's bytes alone, which may be formatted later, in another process (raw_call_line.h).
// Kept next to AppendArgument, whose branches it follows: strings and out-pointers are read, nothing else.
template <typename T>
constexpr bool FormatsWithoutReading(ArgStyle style) {
    using Value = std::remove_cv_t<T>;
    if constexpr (std::is_pointer_v<Value>) {
        using Pointee = std::remove_pointer_t<Value>;
        using Bare = std::remove_cv_t<Pointee>;
        if constexpr (std::is_function_v<Pointee>) {
            return true;
        } else if constexpr (std::is_same_v<Bare, char>) {
            return false;
        } else if constexpr (std::is_void_v<Pointee> || std::is_const_v<Pointee> || std::is_class_v<Bare> ||
                             std::is_union_v<Bare>) {
            return true;
        } else {
            return style == ArgStyle::Input;
        }
    } else {
        return true;
    }
}

template <typename T>
void AppendArgument(std::string* out, const T& value, ArgStyle style, const ArgContext& context) {
    using Value = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<Value, cudaMemcpyKind>) {
        out->append(MemcpyKindName(static_cast<int>(value)));
    } else if constexpr (std::is_same_v<Value, cudaError_t>) {
        out->append(CudaErrorName(static_cast<int>(value)));
    } else if constexpr (std::is_same_v<Value, CUresult>) {
        out->append(CuResultName(static_cast<int>(value)));
    } else if constexpr (std::is_same_v<Value, dim3>) {
        out->push_back('{');
        detail::AppendNumber(out, value.x);
        out->push_back(',');
        detail::AppendNumber(out, value.y);
        out->push_back(',');
        detail::AppendNumber(out, value.z);
        out->push_back('}');
    } else if constexpr (std::is_pointer_v<Value>) {
        using Pointee = std::remove_pointer_t<Value>;
        using Bare = std::remove_cv_t<Pointee>;
        if constexpr (std::is_function_v<Pointee>) {
            AppendPointer(out, reinterpret_cast<const void*>(value));
        } else if constexpr (std::is_same_v<Bare, char>) {
            // const char*: an input string; char*: an output buffer, meaningful after success.
            if (std::is_const_v<Pointee> || (context.succeeded && value != nullptr)) {
                AppendQuoted(out, value);
            } else {
                AppendPointer(out, value);
            }
        } else if constexpr (std::is_void_v<Pointee> || std::is_const_v<Pointee> || std::is_class_v<Bare> ||
                             std::is_union_v<Bare>) {
            AppendPointer(out, static_cast<const void*>(value));
        } else {
            // A non-const pointer to a value, handle or pointer: an out-parameter.
            if (style != ArgStyle::Input && context.succeeded && value != nullptr) {
                out->push_back('[');
                AppendArgument(out, *value, style, context);
                out->push_back(']');
            } else {
                AppendPointer(out, static_cast<const void*>(value));
            }
        }
    } else if constexpr (std::is_class_v<Value> || std::is_union_v<Value>) {
        out->append("{...}");
    } else {
        detail::AppendScalar(out, value, style);
    }
}

}  // namespace gpaprof::cuda
