// Answering a clGet*Info query with a value the layer made, as the OpenCL specification has every such
// query answer: the size in *sizeRet, the bytes in value, CL_INVALID_VALUE when value is too small.
#pragma once

#include <cstring>

#include "layers/opencl/cl_headers.h"

namespace gpa::cl_layer {

inline cl_int AnswerInfo(const void* data, size_t bytes, size_t size, void* value, size_t* sizeRet) {
    if (value) {
        if (size < bytes) return CL_INVALID_VALUE;
        if (bytes) std::memcpy(value, data, bytes);
    }
    if (sizeRet) *sizeRet = bytes;
    return CL_SUCCESS;
}

}  // namespace gpa::cl_layer
