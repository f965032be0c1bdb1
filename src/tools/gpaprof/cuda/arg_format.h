// How a CUDA call's arguments and return value are written in the .atp API trace (docs/profiler_files.md,
// "CUDA API trace"). The generated table calls FormatArgument once per parameter; the overloads below pick
// the format from the parameter's C++ type:
//   integers, enumerations      decimal (CUdeviceptr, a device address, in hex); copy kinds and error codes
//                               by name (cudaMemcpyHostToDevice, cudaErrorInvalidValue, CUDA_SUCCESS)
//   handles, pointers           0x-prefixed hex, NULL for a null pointer
//   const char*                 the string in double quotes
//   out-pointers                after a successful call, the value they point at, in [ ]
//                               (e.g. cudaMalloc ( [0x00007F2A40000000];1048576 ))
//   dim3                        {x,y,z}
//   other structs by value      {...}
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "tools/gpaprof/cuda/cuda_api_table.h"

namespace gpaprof::cuda {

enum class ArgStyle { Plain, Hex, Input };

// When the arguments are formatted: out-pointers are read only after a call that succeeded.
struct ArgContext {
    bool succeeded = false;
};

std::string HexValue(uint64_t value);
std::string PointerText(const void* pointer);
std::string QuotedString(const char* text);  // at most 256 characters, escaped, "NULL" for a null pointer

template <typename T>
std::string FormatArgument(const T& value, ArgStyle style, const ArgContext& context);

namespace detail {

template <typename T>
std::string FormatScalar(const T& value, ArgStyle style) {
    if constexpr (std::is_same_v<T, bool>) {
        return value ? "1" : "0";
    } else if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(value));
    } else if constexpr (std::is_floating_point_v<T>) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
        return text;
    } else if constexpr (std::is_integral_v<T>) {
        if (style == ArgStyle::Hex) return HexValue(static_cast<uint64_t>(value));
        if constexpr (std::is_signed_v<T>) return std::to_string(static_cast<long long>(value));
        else return std::to_string(static_cast<unsigned long long>(value));
    } else {
        return "?";
    }
}

}  // namespace detail

template <typename T>
std::string FormatArgument(const T& value, ArgStyle style, const ArgContext& context) {
    using Value = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<Value, cudaMemcpyKind>) {
        return MemcpyKindName(static_cast<int>(value));
    } else if constexpr (std::is_same_v<Value, cudaError_t>) {
        return CudaErrorName(static_cast<int>(value));
    } else if constexpr (std::is_same_v<Value, CUresult>) {
        return CuResultName(static_cast<int>(value));
    } else if constexpr (std::is_same_v<Value, dim3>) {
        return "{" + std::to_string(value.x) + "," + std::to_string(value.y) + "," + std::to_string(value.z) + "}";
    } else if constexpr (std::is_pointer_v<Value>) {
        using Pointee = std::remove_pointer_t<Value>;
        using Bare = std::remove_cv_t<Pointee>;
        if constexpr (std::is_function_v<Pointee>) {
            return PointerText(reinterpret_cast<const void*>(value));
        } else if constexpr (std::is_same_v<Bare, char>) {
            // const char*: an input string; char*: an output buffer, meaningful after success.
            if (std::is_const_v<Pointee> || (context.succeeded && value != nullptr)) return QuotedString(value);
            return PointerText(value);
        } else if constexpr (std::is_void_v<Pointee> || std::is_const_v<Pointee> || std::is_class_v<Bare> ||
                             std::is_union_v<Bare>) {
            return PointerText(static_cast<const void*>(value));
        } else {
            // A non-const pointer to a value, handle or pointer: an out-parameter.
            if (style != ArgStyle::Input && context.succeeded && value != nullptr) {
                return "[" + FormatArgument(*value, style, context) + "]";
            }
            return PointerText(static_cast<const void*>(value));
        }
    } else if constexpr (std::is_class_v<Value> || std::is_union_v<Value>) {
        return "{...}";
    } else {
        return detail::FormatScalar(value, style);
    }
}

}  // namespace gpaprof::cuda
