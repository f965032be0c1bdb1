// Nanoseconds per range spent in cuptiRangeProfilerPushRange + cuptiRangeProfilerPopRange around `launch`,
// in a user-range session on `context` set up directly with CUPTI; -1 with *problem on failure.
#pragma once

#include <cuda.h>

#include <functional>
#include <string>

double CuptiRangeRound(CUcontext context, const std::function<void()>& launch, int samples, std::string* problem);
