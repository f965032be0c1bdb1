// What the spool tests share: a record encoded to its line and decoded back.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof {

inline spool::Record RoundTrip(const spool::Record& record) {
    const std::string line = spool::Encode(record);
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1) << "a record is one line";
    std::string error;
    std::optional<spool::Record> decoded = spool::Decode(std::string_view(line).substr(0, line.size() - 1), &error);
    EXPECT_TRUE(decoded.has_value()) << error;
    return decoded.value_or(record);
}

}  // namespace gpaprof
