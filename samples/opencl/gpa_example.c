/*
 * The GPA user guide's example (sections 2.2, 2.3, 3 and 7), ported to OpenCL.
 *
 * It loads the OpenCL GPA library with dlopen and resolves every function it calls with dlsym through
 * the <Function>PtrType typedefs (section 2.2), opens the counters on a command queue, enables all of
 * them, and renders "frames": each frame is one GPA session whose passes each sample two kernels (the
 * guide's two draw calls). Finished sessions are written to a CSV file by WriteSession (section 7) as
 * soon as they are ready, skipping sessions that newer ones overwrote (section 3.2).
 *
 * Build: only the headers in include/ and the OpenCL ICD loader are needed (no link to the GPA library).
 * Run:   gpa_example [--library PATH] [--csv FILE] [--frames N] [--iterations N]   (--help for more)
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <ctype.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "GPUPerfAPI.h"
#include "GPUPerfAPIFunctionTypes.h"

/* ---- the GPA functions this program uses (section 2.2, step 3: instances of the function types) ---- */

typedef struct {
    GPA_RegisterLoggingCallbackPtrType RegisterLoggingCallback;
    GPA_InitializePtrType Initialize;
    GPA_DestroyPtrType Destroy;
    GPA_OpenContextPtrType OpenContext;
    GPA_CloseContextPtrType CloseContext;
    GPA_GetDeviceDescPtrType GetDeviceDesc;
    GPA_GetNumCountersPtrType GetNumCounters;
    GPA_GetCounterNamePtrType GetCounterName;
    GPA_GetCounterDataTypePtrType GetCounterDataType;
    GPA_GetCounterUsageTypePtrType GetCounterUsageType;
    GPA_GetUsageTypeAsStrPtrType GetUsageTypeAsStr;
    GPA_EnableAllCountersPtrType EnableAllCounters;
    GPA_GetEnabledCountPtrType GetEnabledCount;
    GPA_GetEnabledIndexPtrType GetEnabledIndex;
    GPA_GetPassCountPtrType GetPassCount;
    GPA_BeginSessionPtrType BeginSession;
    GPA_EndSessionPtrType EndSession;
    GPA_BeginPassPtrType BeginPass;
    GPA_EndPassPtrType EndPass;
    GPA_BeginSamplePtrType BeginSample;
    GPA_EndSamplePtrType EndSample;
    GPA_GetSampleCountPtrType GetSampleCount;
    GPA_IsSessionReadyPtrType IsSessionReady;
    GPA_GetSampleUInt32PtrType GetSampleUInt32;
    GPA_GetSampleUInt64PtrType GetSampleUInt64;
    GPA_GetSampleFloat32PtrType GetSampleFloat32;
    GPA_GetSampleFloat64PtrType GetSampleFloat64;
    GPA_GetStatusAsStrPtrType GetStatusAsStr;
} GpaFunctions;

static GpaFunctions gpa;

/* dlsym returns an object pointer; copying its bytes is the portable way to a function pointer in C. */
static int LoadFunction(void* library, const char* name, void* slot, size_t slotSize) {
    void* symbol = dlsym(library, name);
    if (symbol == NULL || slotSize != sizeof symbol) {
        fprintf(stderr, "gpa_example: %s is missing from the GPA library (%s)\n", name, dlerror());
        return 0;
    }
    memcpy(slot, &symbol, slotSize);
    return 1;
}

#define LOAD(name) LoadFunction(library, "GPA_" #name, &gpa.name, sizeof gpa.name)

static void* LoadGpa(const char* path) {
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* section 2.2, step 4 */
    int ok;
    if (library == NULL) {
        fprintf(stderr, "gpa_example: cannot load %s: %s\n", path, dlerror());
        return NULL;
    }
    /* step 5: one dlsym per function */
    ok = LOAD(RegisterLoggingCallback) & LOAD(Initialize) & LOAD(Destroy) & LOAD(OpenContext) & LOAD(CloseContext) &
         LOAD(GetDeviceDesc) & LOAD(GetNumCounters) & LOAD(GetCounterName) & LOAD(GetCounterDataType) &
         LOAD(GetCounterUsageType) & LOAD(GetUsageTypeAsStr) & LOAD(EnableAllCounters) & LOAD(GetEnabledCount) &
         LOAD(GetEnabledIndex) & LOAD(GetPassCount) & LOAD(BeginSession) & LOAD(EndSession) & LOAD(BeginPass) &
         LOAD(EndPass) & LOAD(BeginSample) & LOAD(EndSample) & LOAD(GetSampleCount) & LOAD(IsSessionReady) &
         LOAD(GetSampleUInt32) & LOAD(GetSampleUInt64) & LOAD(GetSampleFloat32) & LOAD(GetSampleFloat64) &
         LOAD(GetStatusAsStr);
    if (!ok) {
        dlclose(library);
        return NULL;
    }
    return library;
}

/* Stops the program when a GPA call fails; the logging callback has already said why. */
#define GPA_CHECK(call)                                                                                       \
    do {                                                                                                      \
        GPA_Status status_ = (call);                                                                          \
        if (status_ != GPA_STATUS_OK) {                                                                       \
            fprintf(stderr, "gpa_example: %s failed: %s\n", #call, gpa.GetStatusAsStr(status_));              \
            exit(EXIT_FAILURE);                                                                               \
        }                                                                                                     \
    } while (0)

/* Section 2.3: GPA reports errors and messages through this callback. */
static void MyLoggingFunction(GPA_Logging_Type messageType, const char* message) {
    fprintf(stderr, "GPA %s: %s\n", messageType == GPA_LOGGING_ERROR ? "error" : "message", message);
}

/* ---- section 7: WriteSession ---- */

/* Given a sessionID, query the counter values and save them to a file (and print them). */
static void WriteSession(gpa_uint32 currentWaitSessionID, const char* filename) {
    static int doneHeadings = 0;
    gpa_uint32 count;
    gpa_uint32 sampleCount;
    gpa_uint32 sample;
    gpa_uint32 counter;
    FILE* f;
    GPA_CHECK(gpa.GetEnabledCount(&count));

    if (!doneHeadings) {
        const char* name;
        f = fopen(filename, "w");
        if (f == NULL) {
            perror(filename);
            exit(EXIT_FAILURE);
        }
        fprintf(f, "Identifier, ");
        for (counter = 0; counter < count; counter++) {
            gpa_uint32 enabledCounterIndex;
            GPA_CHECK(gpa.GetEnabledIndex(counter, &enabledCounterIndex));
            GPA_CHECK(gpa.GetCounterName(enabledCounterIndex, &name));
            fprintf(f, "%s, ", name);
        }
        fprintf(f, "\n");
        fclose(f);
        doneHeadings = 1;
    }

    f = fopen(filename, "a+");
    if (f == NULL) {
        perror(filename);
        exit(EXIT_FAILURE);
    }
    GPA_CHECK(gpa.GetSampleCount(currentWaitSessionID, &sampleCount));
    /* The samples of this program have ids 0 .. sampleCount-1, as in the guide. */
    for (sample = 0; sample < sampleCount; sample++) {
        fprintf(f, "session: %" PRIu32 "; sample: %" PRIu32 ", ", currentWaitSessionID, sample);
        printf("session %" PRIu32 " sample %" PRIu32 ":", currentWaitSessionID, sample);
        for (counter = 0; counter < count; counter++) {
            gpa_uint32 enabledCounterIndex;
            GPA_Type type;
            GPA_Usage_Type usage;
            const char* name;
            const char* usageName;
            GPA_CHECK(gpa.GetEnabledIndex(counter, &enabledCounterIndex));
            GPA_CHECK(gpa.GetCounterDataType(enabledCounterIndex, &type));
            GPA_CHECK(gpa.GetCounterName(enabledCounterIndex, &name));
            GPA_CHECK(gpa.GetCounterUsageType(enabledCounterIndex, &usage));
            GPA_CHECK(gpa.GetUsageTypeAsStr(usage, &usageName));
            if (type == GPA_TYPE_UINT32) {
                gpa_uint32 value;
                GPA_CHECK(gpa.GetSampleUInt32(currentWaitSessionID, sample, enabledCounterIndex, &value));
                fprintf(f, "%" PRIu32 ",", value);
                printf(" %s = %" PRIu32 " (%s)", name, value, usageName);
            } else if (type == GPA_TYPE_UINT64) {
                gpa_uint64 value;
                GPA_CHECK(gpa.GetSampleUInt64(currentWaitSessionID, sample, enabledCounterIndex, &value));
                fprintf(f, "%" PRIu64 ",", value); /* the guide's %I64u is Windows-only */
                printf(" %s = %" PRIu64 " (%s)", name, value, usageName);
            } else if (type == GPA_TYPE_FLOAT32) {
                gpa_float32 value;
                GPA_CHECK(gpa.GetSampleFloat32(currentWaitSessionID, sample, enabledCounterIndex, &value));
                fprintf(f, "%f,", value);
                printf(" %s = %f (%s)", name, value, usageName);
            } else if (type == GPA_TYPE_FLOAT64) {
                gpa_float64 value;
                GPA_CHECK(gpa.GetSampleFloat64(currentWaitSessionID, sample, enabledCounterIndex, &value));
                fprintf(f, "%f,", value);
                printf(" %s = %f (%s)", name, value, usageName);
            } else {
                fprintf(stderr, "gpa_example: counter %s has an unexpected type %d\n", name, (int)type);
                exit(EXIT_FAILURE);
            }
        }
        fprintf(f, "\n");
        printf("\n");
    }
    fclose(f);
}

/* ---- the OpenCL workload: two kernels, the guide's two draw calls ---- */

static const char* const kProgramSource =
    "__kernel void scale(__global float* data, float factor) {\n"
    "    size_t i = get_global_id(0);\n"
    "    data[i] = data[i] * factor + 1.0f;\n"
    "}\n"
    "__kernel void spin(__global float* data, uint iterations) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = data[i];\n"
    "    for (uint k = 0; k < iterations; ++k) x = x * 0.9999f + 0.5f;\n"
    "    data[i] = x;\n"
    "}\n";

enum { kElements = 1 << 20, kSpinElements = 1 << 14 };

typedef struct {
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel scale;
    cl_kernel spin;
    cl_mem data;
} Workload;

static void ClCheck(cl_int error, const char* what) {
    if (error != CL_SUCCESS) {
        fprintf(stderr, "gpa_example: %s failed with OpenCL error %d\n", what, (int)error);
        exit(EXIT_FAILURE);
    }
}

static int ContainsIgnoringCase(const char* text, const char* part) {
    size_t n = strlen(part), i, k;
    for (i = 0; text[i] != '\0'; ++i) {
        for (k = 0; k < n && text[i + k] != '\0'; ++k) {
            if (tolower((unsigned char)text[i + k]) != tolower((unsigned char)part[k])) break;
        }
        if (k == n) return 1;
    }
    return n == 0;
}

/* The first device of the first platform, or of the first platform whose name contains $OPENGPA_CL_PLATFORM. */
static void CreateWorkload(Workload* w, cl_uint spinIterations) {
    cl_platform_id platforms[16];
    cl_uint platformCount = 0, p;
    cl_platform_id platform = NULL;
    cl_device_id device;
    cl_int error;
    char name[256];
    const char* wanted = getenv("OPENGPA_CL_PLATFORM");
    const size_t scaleSize = kElements, spinSize = kSpinElements;
    const char* source = kProgramSource;
    float factor = 0.5f;

    /* "no OpenCL device" is what the CTest test of this sample treats as a reason to skip. */
    error = clGetPlatformIDs(16, platforms, &platformCount);
    if (error != CL_SUCCESS || platformCount == 0) {
        fprintf(stderr, "gpa_example: no OpenCL device: no OpenCL platform (error %d)\n", (int)error);
        exit(EXIT_FAILURE);
    }
    for (p = 0; p < platformCount && p < 16 && platform == NULL; ++p) {
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (wanted == NULL || ContainsIgnoringCase(name, wanted)) platform = platforms[p];
    }
    if (platform == NULL) {
        fprintf(stderr, "gpa_example: no OpenCL device: no platform name contains OPENGPA_CL_PLATFORM='%s'\n", wanted);
        exit(EXIT_FAILURE);
    }
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "gpa_example: no OpenCL device on platform '%s'\n", name);
        exit(EXIT_FAILURE);
    }
    w->context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
    ClCheck(error, "clCreateContext");
    /* GPA reads device timestamps, so the queue must be created with profiling enabled. */
    w->queue = clCreateCommandQueue(w->context, device, CL_QUEUE_PROFILING_ENABLE, &error);
    ClCheck(error, "clCreateCommandQueue");
    w->program = clCreateProgramWithSource(w->context, 1, &source, NULL, &error);
    ClCheck(error, "clCreateProgramWithSource");
    ClCheck(clBuildProgram(w->program, 1, &device, NULL, NULL, NULL), "clBuildProgram");
    w->scale = clCreateKernel(w->program, "scale", &error);
    ClCheck(error, "clCreateKernel(scale)");
    w->spin = clCreateKernel(w->program, "spin", &error);
    ClCheck(error, "clCreateKernel(spin)");
    w->data = clCreateBuffer(w->context, CL_MEM_READ_WRITE, kElements * sizeof(float), NULL, &error);
    ClCheck(error, "clCreateBuffer");
    ClCheck(clSetKernelArg(w->scale, 0, sizeof w->data, &w->data), "clSetKernelArg");
    ClCheck(clSetKernelArg(w->scale, 1, sizeof factor, &factor), "clSetKernelArg");
    ClCheck(clSetKernelArg(w->spin, 0, sizeof w->data, &w->data), "clSetKernelArg");
    ClCheck(clSetKernelArg(w->spin, 1, sizeof spinIterations, &spinIterations), "clSetKernelArg");
    /* Run both kernels once, so that the frames measure execution, not a first-launch compilation. */
    ClCheck(clEnqueueNDRangeKernel(w->queue, w->scale, 1, NULL, &scaleSize, NULL, 0, NULL, NULL), "scale");
    ClCheck(clEnqueueNDRangeKernel(w->queue, w->spin, 1, NULL, &spinSize, NULL, 0, NULL, NULL), "spin");
    ClCheck(clFinish(w->queue), "clFinish");
}

static void DrawCall(Workload* w, int which) {
    const size_t scaleSize = kElements, spinSize = kSpinElements;
    if (which == 0) {
        ClCheck(clEnqueueNDRangeKernel(w->queue, w->scale, 1, NULL, &scaleSize, NULL, 0, NULL, NULL), "scale");
    } else {
        ClCheck(clEnqueueNDRangeKernel(w->queue, w->spin, 1, NULL, &spinSize, NULL, 0, NULL, NULL), "spin");
    }
}

static void ReleaseWorkload(Workload* w) {
    clReleaseMemObject(w->data);
    clReleaseKernel(w->spin);
    clReleaseKernel(w->scale);
    clReleaseProgram(w->program);
    clReleaseCommandQueue(w->queue);
    clReleaseContext(w->context);
}

static void SleepMilliseconds(long milliseconds) {
    struct timespec pause;
    pause.tv_sec = milliseconds / 1000;
    pause.tv_nsec = (milliseconds % 1000) * 1000000L;
    nanosleep(&pause, NULL);
}

/* ---- main: section 3 ---- */

static void Usage(void) {
    printf("usage: gpa_example [--library PATH] [--csv FILE] [--frames N] [--iterations N]\n"
           "\n"
           "Runs the GPA user guide's example on OpenCL: every frame is one GPA session that samples two\n"
           "kernels per pass; finished sessions go to the CSV file (section 7) and to stdout.\n"
           "\n"
           "  --library PATH   the OpenCL GPA library to dlopen. Default: $OPENGPA_LIBRARY, else\n"
           "                   libGPUPerfAPICL.so found through LD_LIBRARY_PATH (section 2.14).\n"
           "  --csv FILE       where WriteSession writes (default GPUPerfAPI-Example.csv)\n"
           "  --frames N       frames (sessions) to render (default 8)\n"
           "  --iterations N   loop length of the second kernel (default 2000)\n"
           "\n"
           "OPENGPA_CL_PLATFORM=<part of a platform name> picks the OpenCL platform (default: the first);\n"
           "the first device of that platform runs the kernels.\n");
}

int main(int argc, char** argv) {
    const char* libraryPath = getenv("OPENGPA_LIBRARY");
    const char* csv = "GPUPerfAPI-Example.csv";
    int frames = 8, frame, i;
    cl_uint iterations = 2000;
    void* library;
    Workload w;
    const char* description;
    gpa_uint32 counterCount, c;
    gpa_uint32 currentWaitSessionID = 1;
    gpa_uint32 lastSessionID = 0;

    if (libraryPath == NULL || libraryPath[0] == '\0') libraryPath = "libGPUPerfAPICL.so";
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            Usage();
            return EXIT_SUCCESS;
        } else if (strcmp(argv[i], "--library") == 0 && i + 1 < argc) {
            libraryPath = argv[++i];
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            csv = argv[++i];
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = (cl_uint)strtoul(argv[++i], NULL, 10);
        } else {
            Usage();
            return EXIT_FAILURE;
        }
    }

    library = LoadGpa(libraryPath);
    if (library == NULL) return EXIT_FAILURE;

    /* 3.1 Startup */
    GPA_CHECK(gpa.RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, MyLoggingFunction));
    GPA_CHECK(gpa.Initialize());
    CreateWorkload(&w, iterations);
    GPA_CHECK(gpa.OpenContext((void*)w.queue, GPA_OPENCONTEXT_DEFAULT_BIT));
    GPA_CHECK(gpa.EnableAllCounters());
    GPA_CHECK(gpa.GetDeviceDesc(&description));
    GPA_CHECK(gpa.GetNumCounters(&counterCount));
    printf("device: %s; %" PRIu32 " counters:", description, counterCount);
    for (c = 0; c < counterCount; ++c) {
        const char* name;
        GPA_CHECK(gpa.GetCounterName(c, &name));
        printf(" %s", name);
    }
    printf("\n");

    /* 3.2 Render loop */
    for (frame = 0; frame < frames; ++frame) {
        gpa_uint32 sessionID;
        gpa_uint32 numRequiredPasses;
        gpa_uint32 pass;
        bool readyResult = false;

        GPA_CHECK(gpa.BeginSession(&sessionID));
        GPA_CHECK(gpa.GetPassCount(&numRequiredPasses));
        for (pass = 0; pass < numRequiredPasses; pass++) {
            GPA_CHECK(gpa.BeginPass());
            GPA_CHECK(gpa.BeginSample(0));
            DrawCall(&w, 0);
            GPA_CHECK(gpa.EndSample());
            GPA_CHECK(gpa.BeginSample(1));
            DrawCall(&w, 1);
            GPA_CHECK(gpa.EndSample());
            GPA_CHECK(gpa.EndPass());
        }
        GPA_CHECK(gpa.EndSession());
        lastSessionID = sessionID;

        if (sessionID != currentWaitSessionID) {
            GPA_Status sessionStatus = gpa.IsSessionReady(&readyResult, currentWaitSessionID);
            while (sessionStatus == GPA_STATUS_ERROR_SESSION_NOT_FOUND) {
                /* skipping a session which got overwritten */
                printf("session %" PRIu32 " was overwritten before it was read; skipped\n", currentWaitSessionID);
                currentWaitSessionID++;
                sessionStatus = gpa.IsSessionReady(&readyResult, currentWaitSessionID);
            }
            GPA_CHECK(sessionStatus);
            if (readyResult) {
                WriteSession(currentWaitSessionID, csv);
                currentWaitSessionID++;
            }
        }
    }

    /* Before closing: write the sessions still in flight (the same loop, waiting instead of rendering). */
    while (currentWaitSessionID <= lastSessionID) {
        bool readyResult = false;
        GPA_Status sessionStatus = gpa.IsSessionReady(&readyResult, currentWaitSessionID);
        if (sessionStatus == GPA_STATUS_ERROR_SESSION_NOT_FOUND) {
            printf("session %" PRIu32 " was overwritten before it was read; skipped\n", currentWaitSessionID);
            currentWaitSessionID++;
            continue;
        }
        GPA_CHECK(sessionStatus);
        if (!readyResult) {
            SleepMilliseconds(1);
            continue;
        }
        WriteSession(currentWaitSessionID, csv);
        currentWaitSessionID++;
    }

    /* 3.3 On exit */
    GPA_CHECK(gpa.CloseContext());
    ReleaseWorkload(&w);
    GPA_CHECK(gpa.Destroy());
    dlclose(library);
    printf("wrote %s\n", csv);
    return EXIT_SUCCESS;
}
