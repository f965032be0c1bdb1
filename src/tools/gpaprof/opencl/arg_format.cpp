#include "tools/gpaprof/opencl/arg_format.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::ocl {
namespace {

constexpr size_t kMaxListed = 16;  // longer lists end with ",..."

std::string Escaped(const char* text, size_t length, size_t maxLength) {
    std::string quoted = "\"";
    const size_t shown = std::min(length, maxLength);
    for (size_t i = 0; i < shown; ++i) {
        const char c = text[i];
        switch (c) {
            case '"': quoted += "\\\""; break;
            case '\\': quoted += "\\\\"; break;
            case '\n': quoted += "\\n"; break;
            case '\r': quoted += "\\r"; break;
            case '\t': quoted += "\\t"; break;
            default: quoted += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
        }
    }
    if (shown < length) quoted += "...";
    return quoted + "\"";
}

}  // namespace

std::string HandleText(const void* handle) {
    return handle ? HexHandle(reinterpret_cast<uintptr_t>(handle)) : std::string("NULL");
}

std::string QuotedText(const char* text, size_t maxLength) {
    if (!text) return "NULL";
    return Escaped(text, std::strlen(text), maxLength);
}

Args& Args::Handle(const void* handle) {
    args_.push_back(HandleText(handle));
    return *this;
}

Args& Args::Unsigned(uint64_t value) {
    args_.push_back(std::to_string(value));
    return *this;
}

Args& Args::Signed(int64_t value) {
    args_.push_back(std::to_string(value));
    return *this;
}

Args& Args::Bool(cl_bool value) {
    args_.push_back(BoolName(value));
    return *this;
}

Args& Args::Enum(EnumKind kind, uint64_t value) {
    args_.push_back(EnumName(kind, value));
    return *this;
}

Args& Args::Flags(FlagKind kind, uint64_t value) {
    args_.push_back(FlagNames(kind, value));
    return *this;
}

Args& Args::String(const char* text) {
    args_.push_back(QuotedText(text));
    return *this;
}

Args& Args::Text(std::string text) {
    args_.push_back(std::move(text));
    return *this;
}

Args& Args::Sizes(cl_uint count, const size_t* values) {
    if (!values) return Text("NULL");
    std::string text = "{";
    for (cl_uint i = 0; i < count && i < kMaxListed; ++i) text += (i ? "," : "") + std::to_string(values[i]);
    if (count > kMaxListed) text += ",...";
    return Text(text + "}");
}

Args& Args::Handles(cl_uint count, const void* const* handles) {
    if (!handles) return Text("NULL");
    std::string text = "{";
    for (cl_uint i = 0; i < count && i < kMaxListed; ++i) text += (i ? "," : "") + HandleText(handles[i]);
    if (count > kMaxListed) text += ",...";
    return Text(text + "}");
}

Args& Args::Strings(cl_uint count, const char* const* strings, const size_t* lengths) {
    if (!strings) return Text("NULL");
    std::string text = "{";
    for (cl_uint i = 0; i < count && i < kMaxListed; ++i) {
        if (i) text += ',';
        if (!strings[i]) {
            text += "NULL";
            continue;
        }
        const size_t length = (lengths && lengths[i]) ? lengths[i] : std::strlen(strings[i]);
        text += Escaped(strings[i], length, 48);
    }
    if (count > kMaxListed) text += ",...";
    return Text(text + "}");
}

Args& Args::ImageFormat(const cl_image_format* format) {
    if (!format) return Text("NULL");
    return Text("{" + EnumName(EnumKind::ChannelOrder, format->image_channel_order) + "," +
                EnumName(EnumKind::ChannelType, format->image_channel_data_type) + "}");
}

Args& Args::ImageDesc(const cl_image_desc* desc) {
    if (!desc) return Text("NULL");
    return Text("{" + EnumName(EnumKind::MemObjectType, desc->image_type) + "," + std::to_string(desc->image_width) +
                "," + std::to_string(desc->image_height) + "," + std::to_string(desc->image_depth) + "," +
                std::to_string(desc->image_array_size) + "," + std::to_string(desc->image_row_pitch) + "," +
                std::to_string(desc->image_slice_pitch) + "," + std::to_string(desc->num_mip_levels) + "," +
                std::to_string(desc->num_samples) + "," + HandleText(desc->mem_object) + "}");
}

Args& Args::Properties(EnumKind keys, const intptr_t* properties) {
    if (!properties) return Text("NULL");
    std::string text = "{";
    size_t i = 0;
    for (; properties[i] != 0 && i < 2 * kMaxListed; i += 2) {
        text += EnumName(keys, static_cast<uint64_t>(properties[i])) + ",";
        text += HandleText(reinterpret_cast<const void*>(properties[i + 1])) + ",";
    }
    return Text(text + "0}");
}

Args& Args::Properties64(EnumKind keys, const cl_ulong* properties) {
    if (!properties) return Text("NULL");
    std::string text = "{";
    for (size_t i = 0; properties[i] != 0 && i < 2 * kMaxListed; i += 2) {
        text += EnumName(keys, properties[i]) + ",";
        if (keys == EnumKind::QueueProperty && properties[i] == CL_QUEUE_PROPERTIES) {
            text += FlagNames(FlagKind::QueueProperties, properties[i + 1]) + ",";
        } else {
            text += std::to_string(properties[i + 1]) + ",";
        }
    }
    return Text(text + "0}");
}

Args& Args::OutError(const cl_int* error) {
    if (!error) return Text("NULL");
    return Text("[" + ErrorName(*error) + "]");
}

Args& Args::OutUnsigned(const cl_uint* value) {
    if (!value) return Text("NULL");
    return Text("[" + std::to_string(*value) + "]");
}

Args& Args::OutSize(const size_t* value) {
    if (!value) return Text("NULL");
    return Text("[" + std::to_string(*value) + "]");
}

Args& Args::OutHandle(const void* const* handle) {
    if (!handle) return Text("NULL");
    return Text("[" + HandleText(*handle) + "]");
}

Args& Args::OutHandles(const void* const* handles, cl_uint count) {
    if (!handles) return Text("NULL");
    std::string text = "[";
    for (cl_uint i = 0; i < count && i < kMaxListed; ++i) text += (i ? "," : "") + HandleText(handles[i]);
    if (count > kMaxListed) text += ",...";
    return Text(text + "]");
}

Args& Args::InfoValue(EnumKind kind, uint64_t param, const void* value, size_t capacity, const size_t* sizeRet,
                      bool succeeded) {
    if (!value) return Text("NULL");
    if (!succeeded) return Handle(value);
    const size_t size = sizeRet ? std::min(*sizeRet, capacity) : capacity;
    if (IsStringInfo(kind, param)) {
        const char* text = static_cast<const char*>(value);
        return Text("[" + Escaped(text, strnlen(text, size), 96) + "]");
    }
    if (size == sizeof(cl_uint)) {
        cl_uint number;
        std::memcpy(&number, value, sizeof number);
        return Text("[" + std::to_string(number) + "]");
    }
    if (size == sizeof(cl_ulong)) {
        cl_ulong number;
        std::memcpy(&number, value, sizeof number);
        return Text("[" + std::to_string(number) + "]");
    }
    return Handle(value);
}

}  // namespace gpaprof::ocl
