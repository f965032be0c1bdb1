// FINISH(returnText, .Handle(x).Unsigned(n)...): the end of a traced OpenCL entry point, for the files of entry points
// (traced_enqueues.cpp and the three of traced_objects_internal.h). A macro so that a call that is not recorded
// does not even build its argument list. Each file that uses it #undefs it at its end.
#pragma once

#define FINISH(returnText, ...)                \
    do {                                       \
        if (call.record()) {                   \
            Args a;                            \
            a __VA_ARGS__;                     \
            call.Finish(returnText, a);        \
        }                                      \
    } while (0)
