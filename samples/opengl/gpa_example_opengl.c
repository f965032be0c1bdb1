/*
 * The GPA user guide's example (sections 2.2, 2.3, 3 and 7), on OpenGL, headless.
 *
 * It loads the OpenGL GPA library with dlopen and resolves every function it calls with dlsym through the
 * <Function>PtrType typedefs (section 2.2), creates an OpenGL 4.5 core context on EGL without a window (the
 * surfaceless platform, EGL_MESA_platform_surfaceless, else the default display), renders into a 64 x 48
 * framebuffer object, opens the counters on the context that is current (GPA_OpenContext takes the
 * EGLContext), enables all of them, and renders "frames": each frame is one GPA session; each pass draws the
 * guide's two draw calls, each in its own sample: a full-screen quad (two triangles) and a grid of small
 * triangles. Finished sessions are written to a CSV file by WriteSession (section 7) as soon as they are
 * ready, skipping sessions that newer ones overwrote (section 3.2).
 *
 * Build: the headers in include/, EGL and OpenGL (glvnd's libEGL and libOpenGL; no link to the GPA library).
 * Run:   gpa_example_opengl [--library PATH] [--csv FILE] [--frames N] [--triangles N]   (--help for more)
 */
#define _POSIX_C_SOURCE 200809L
#define GL_GLEXT_PROTOTYPES 1

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        fprintf(stderr, "gpa_example_opengl: %s is missing from the GPA library (%s)\n", name, dlerror());
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
        fprintf(stderr, "gpa_example_opengl: cannot load %s: %s\n", path, dlerror());
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
            fprintf(stderr, "gpa_example_opengl: %s failed: %s\n", #call, gpa.GetStatusAsStr(status_));     \
            exit(EXIT_FAILURE);                                                                               \
        }                                                                                                     \
    } while (0)

/* A counter a sample has no value of (GPA_STATUS_ERROR_READING_COUNTER_RESULT: on NVIDIA the device-sampled
 * counters of a sample whose window the PM samples do not cover; the logging callback said why) is written as NA,
 * never as a number; its other counters are written as usual. Other failures stop the program. */
static int ReadOrNa(GPA_Status status, const char* what, FILE* f, const char* name) {
    if (status == GPA_STATUS_OK) return 1;
    if (status == GPA_STATUS_ERROR_READING_COUNTER_RESULT) {
        fprintf(f, "NA,");
        printf(" %s = NA", name);
        return 0;
    }
    fprintf(stderr, "%s: %s failed: %s\n", "gpa_example_opengl", what, gpa.GetStatusAsStr(status));
    exit(EXIT_FAILURE);
}

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
                if (ReadOrNa(gpa.GetSampleUInt32(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleUInt32", f, name)) {
                    fprintf(f, "%" PRIu32 ",", value);
                    printf(" %s = %" PRIu32 " (%s)", name, value, usageName);
                }
            } else if (type == GPA_TYPE_UINT64) {
                gpa_uint64 value;
                if (ReadOrNa(gpa.GetSampleUInt64(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleUInt64", f, name)) {
                    fprintf(f, "%" PRIu64 ",", value); /* the guide's %I64u is Windows-only */
                    printf(" %s = %" PRIu64 " (%s)", name, value, usageName);
                }
            } else if (type == GPA_TYPE_FLOAT32) {
                gpa_float32 value;
                if (ReadOrNa(gpa.GetSampleFloat32(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleFloat32", f, name)) {
                    fprintf(f, "%f,", value);
                    printf(" %s = %f (%s)", name, value, usageName);
                }
            } else if (type == GPA_TYPE_FLOAT64) {
                gpa_float64 value;
                if (ReadOrNa(gpa.GetSampleFloat64(currentWaitSessionID, sample, enabledCounterIndex, &value), "gpa.GetSampleFloat64", f, name)) {
                    fprintf(f, "%f,", value);
                    printf(" %s = %f (%s)", name, value, usageName);
                }
            } else {
                fprintf(stderr, "gpa_example_opengl: counter %s has an unexpected type %d\n", name, (int)type);
                exit(EXIT_FAILURE);
            }
        }
        fprintf(f, "\n");
        printf("\n");
    }
    fclose(f);
}

/* ---- the OpenGL work: a context on EGL without a window, a framebuffer object, two draw calls ---- */

/* "no OpenGL device" is what the CTest test of this sample treats as a reason to skip; 77 is the samples'
   skip exit code (samples/cuda). */
enum { kWidth = 64, kHeight = 48, kMaxTriangles = 1000, kSkip = 77 };

typedef struct {
    EGLDisplay display;
    EGLSurface surface; /* EGL_NO_SURFACE where the display can make a context current without one */
    EGLContext context;
    GLuint framebuffer, color, program, vertexArray, buffer;
    GLint triangles; /* the small triangles of the second draw call */
} Workload;

static void NoDevice(const char* why) {
    fprintf(stderr, "gpa_example_opengl: no OpenGL device: %s (EGL error 0x%x)\n", why, (unsigned)eglGetError());
    exit(kSkip);
}

static int HasExtension(const char* list, const char* name) {
    size_t length = strlen(name);
    const char* at = list;
    while (list != NULL && (at = strstr(at, name)) != NULL) {
        if ((at == list || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0')) return 1;
        at += length;
    }
    return 0;
}

static void CreateContext(Workload* w) {
    static const EGLint kVersions[2][2] = {{4, 5}, {3, 3}}; /* 4.5 core, else the oldest core that runs the shaders */
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const char* extensions;
    EGLConfig config = EGL_NO_CONFIG_KHR;
    EGLint major = 0, minor = 0, i;

    w->display = EGL_NO_DISPLAY;
    if (HasExtension(client, "EGL_EXT_platform_base") && HasExtension(client, "EGL_MESA_platform_surfaceless")) {
        PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplay =
            (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
        if (getPlatformDisplay != NULL) w->display = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (w->display != EGL_NO_DISPLAY && !eglInitialize(w->display, &major, &minor)) w->display = EGL_NO_DISPLAY;
    }
    if (w->display == EGL_NO_DISPLAY) {
        fprintf(stderr, "gpa_example_opengl: no display on EGL's surfaceless platform "
                        "(EGL_MESA_platform_surfaceless): using the default display\n");
        w->display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
        if (w->display == EGL_NO_DISPLAY || !eglInitialize(w->display, &major, &minor)) NoDevice("EGL opens no display");
    }
    if (!eglBindAPI(EGL_OPENGL_API)) NoDevice("the EGL display has no desktop OpenGL");
    extensions = eglQueryString(w->display, EGL_EXTENSIONS);

    /* Without a window: no config and no surface where EGL allows it, else a config and a 1 x 1 pbuffer. */
    w->surface = EGL_NO_SURFACE;
    if (!HasExtension(extensions, "EGL_KHR_no_config_context") || !HasExtension(extensions, "EGL_KHR_surfaceless_context")) {
        static const EGLint kAttributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
        EGLint found = 0;
        if (!eglChooseConfig(w->display, kAttributes, &config, 1, &found) || found == 0) NoDevice("no EGL config renders OpenGL");
    }
    if (!HasExtension(extensions, "EGL_KHR_surfaceless_context")) {
        static const EGLint kPbuffer[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        w->surface = eglCreatePbufferSurface(w->display, config, kPbuffer);
        if (w->surface == EGL_NO_SURFACE) NoDevice("no pbuffer surface");
    }
    w->context = EGL_NO_CONTEXT;
    for (i = 0; i < 2 && w->context == EGL_NO_CONTEXT; ++i) {
        const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, kVersions[i][0], EGL_CONTEXT_MINOR_VERSION, kVersions[i][1],
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        w->context = eglCreateContext(w->display, config, EGL_NO_CONTEXT, attributes);
    }
    if (w->context == EGL_NO_CONTEXT) NoDevice("no OpenGL 4.5 or 3.3 core context");
    if (!eglMakeCurrent(w->display, w->surface, w->surface, w->context)) NoDevice("eglMakeCurrent failed");
    printf("OpenGL: %s | %s (EGL %d.%d, %s)\n", (const char*)glGetString(GL_RENDERER), (const char*)glGetString(GL_VERSION),
           (int)major, (int)minor, eglQueryString(w->display, EGL_VENDOR));
}

static GLuint Shader(GLenum stage, const char* source) {
    GLuint shader = glCreateShader(stage);
    GLint ok = GL_FALSE;
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fprintf(stderr, "gpa_example_opengl: a shader does not compile: %s\n", log);
        exit(EXIT_FAILURE);
    }
    return shader;
}

/* The vertices: the quad (two triangles covering the framebuffer), then `triangles` small ones on a grid. */
static GLsizei FillVertices(GLfloat* xy, GLint triangles) {
    static const GLfloat kQuad[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    const GLint columns = triangles < 6 ? triangles : 6, rows = (triangles + columns - 1) / columns;
    const GLfloat width = 2.0f / (GLfloat)columns, height = 2.0f / (GLfloat)rows;
    GLsizei n = 12;
    GLint t;
    memcpy(xy, kQuad, sizeof kQuad);
    for (t = 0; t < triangles; ++t) {
        const GLfloat x = -1.0f + width * (GLfloat)(t % columns), y = -1.0f + height * (GLfloat)(t / columns);
        const GLfloat corners[6] = {x + 0.1f * width, y + 0.1f * height, x + 0.9f * width, y + 0.1f * height,
                                    x + 0.5f * width, y + 0.9f * height};
        memcpy(xy + n, corners, sizeof corners);
        n += 6;
    }
    return n;
}

static void CreateWorkload(Workload* w, GLint triangles) {
    static const char* const kVertex = "#version 330 core\n"
                                       "layout(location = 0) in vec2 position;\n"
                                       "void main() { gl_Position = vec4(position, 0.0, 1.0); }\n";
    static const char* const kFragment = "#version 330 core\n"
                                         "out vec4 color;\n"
                                         "void main() { color = vec4(0.2, 0.6, 1.0, 1.0); }\n";
    static GLfloat xy[12 + 6 * kMaxTriangles];
    const GLsizei floats = FillVertices(xy, triangles);
    GLuint vertex, fragment;
    GLint ok = GL_FALSE;

    CreateContext(w);
    w->triangles = triangles;
    /* There is no window: the frames are drawn into a framebuffer object. */
    glGenRenderbuffers(1, &w->color);
    glBindRenderbuffer(GL_RENDERBUFFER, w->color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kWidth, kHeight);
    glGenFramebuffers(1, &w->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, w->framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, w->color);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "gpa_example_opengl: the %d x %d framebuffer object is incomplete\n", kWidth, kHeight);
        exit(EXIT_FAILURE);
    }
    glViewport(0, 0, kWidth, kHeight);

    vertex = Shader(GL_VERTEX_SHADER, kVertex);
    fragment = Shader(GL_FRAGMENT_SHADER, kFragment);
    w->program = glCreateProgram();
    glAttachShader(w->program, vertex);
    glAttachShader(w->program, fragment);
    glLinkProgram(w->program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    glGetProgramiv(w->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "gpa_example_opengl: the program does not link\n");
        exit(EXIT_FAILURE);
    }
    glUseProgram(w->program);

    glGenVertexArrays(1, &w->vertexArray);
    glBindVertexArray(w->vertexArray);
    glGenBuffers(1, &w->buffer);
    glBindBuffer(GL_ARRAY_BUFFER, w->buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)floats * sizeof(GLfloat)), xy, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(GLfloat), NULL);
    glEnableVertexAttribArray(0);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);

    /* Draw once, so that the frames measure drawing, not the driver compiling the shaders at the first draw. */
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, 6 + 3 * triangles);
    glFinish();
    if (glGetError() != GL_NO_ERROR) {
        fprintf(stderr, "gpa_example_opengl: setting up the OpenGL work failed (GL error)\n");
        exit(EXIT_FAILURE);
    }
}

static void ReleaseWorkload(Workload* w) {
    glDeleteBuffers(1, &w->buffer);
    glDeleteVertexArrays(1, &w->vertexArray);
    glDeleteProgram(w->program);
    glDeleteFramebuffers(1, &w->framebuffer);
    glDeleteRenderbuffers(1, &w->color);
    eglMakeCurrent(w->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(w->display, w->context);
    if (w->surface != EGL_NO_SURFACE) eglDestroySurface(w->display, w->surface);
    eglTerminate(w->display);
    eglReleaseThread();
}

/* The guide's two draw calls: the full-screen quad, and the small triangles. */
static void DrawCall(Workload* w, int which) {
    if (which == 0) {
        glDrawArrays(GL_TRIANGLES, 0, 6);
    } else {
        glDrawArrays(GL_TRIANGLES, 6, 3 * w->triangles);
    }
}

/* ---- main: section 3 ---- */

static void Usage(void) {
    printf("usage: gpa_example_opengl [--library PATH] [--csv FILE] [--frames N] [--triangles N]\n"
           "\n"
           "Runs the GPA user guide's example on OpenGL without a window: every frame is one GPA session whose\n"
           "passes sample two draws into a %d x %d framebuffer object, a full-screen quad (2 triangles) and N\n"
           "small triangles; finished sessions go to the CSV file (section 7) and to stdout.\n"
           "\n"
           "  --library PATH   the OpenGL GPA library to dlopen. Default: $OPENGPA_LIBRARY, else\n"
           "                   libGPUPerfAPIGL.so found through LD_LIBRARY_PATH (section 2.14).\n"
           "  --csv FILE       where WriteSession writes (default GPUPerfAPI-Example-OpenGL.csv)\n"
           "  --frames N       frames (sessions) to render (default 8)\n"
           "  --triangles N    small triangles of the second draw call, 1 to %d (default 30)\n"
           "\n"
           "The context is an OpenGL 4.5 core context (else 3.3) on EGL's surfaceless platform\n"
           "(EGL_MESA_platform_surfaceless; Mesa's llvmpipe runs it on the CPU), else on EGL's default display.\n"
           "Without one the program says \"no OpenGL device\" and exits with %d.\n",
           kWidth, kHeight, kMaxTriangles, kSkip);
}

int main(int argc, char** argv) {
    const char* libraryPath = getenv("OPENGPA_LIBRARY");
    const char* csv = "GPUPerfAPI-Example-OpenGL.csv";
    int frames = 8, frame, i;
    GLint triangles = 30;
    void* library;
    Workload w;
    const char* description;
    gpa_uint32 counterCount, c;
    gpa_uint32 currentWaitSessionID = 1;
    gpa_uint32 lastSessionID = 0;

    if (libraryPath == NULL || libraryPath[0] == '\0') libraryPath = "libGPUPerfAPIGL.so";
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
        } else if (strcmp(argv[i], "--triangles") == 0 && i + 1 < argc) {
            triangles = (GLint)atoi(argv[++i]);
            if (triangles < 1 || triangles > kMaxTriangles) {
                Usage();
                return EXIT_FAILURE;
            }
        } else {
            Usage();
            return EXIT_FAILURE;
        }
    }

    library = LoadGpa(libraryPath);
    if (library == NULL) return EXIT_FAILURE;

    /* 3.1 Startup: the counters open on the context current on this thread, where every GPA call is made. */
    GPA_CHECK(gpa.RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, MyLoggingFunction));
    GPA_CHECK(gpa.Initialize());
    CreateWorkload(&w, triangles);
    GPA_CHECK(gpa.OpenContext((void*)w.context, GPA_OPENCONTEXT_DEFAULT_BIT));
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
        /* More than one pass where counters cannot share one (Occlusion and OcclusionPredicate): every pass
           draws the same frame. */
        GPA_CHECK(gpa.GetPassCount(&numRequiredPasses));
        for (pass = 0; pass < numRequiredPasses; pass++) {
            GPA_CHECK(gpa.BeginPass());
            glClear(GL_COLOR_BUFFER_BIT);
            GPA_CHECK(gpa.BeginSample(0));
            DrawCall(&w, 0);
            GPA_CHECK(gpa.EndSample());
            GPA_CHECK(gpa.BeginSample(1));
            DrawCall(&w, 1);
            GPA_CHECK(gpa.EndSample());
            GPA_CHECK(gpa.EndPass());
            glFlush(); /* the frame's "present": the driver starts on it */
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

    /* Before closing: write the sessions still in flight. */
    glFinish();
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
            fprintf(stderr, "gpa_example_opengl: session %" PRIu32 " is not ready after glFinish\n", currentWaitSessionID);
            return EXIT_FAILURE;
        }
        WriteSession(currentWaitSessionID, csv);
        currentWaitSessionID++;
    }

    /* 3.3 On exit: GPA first, while the context still exists and is current. */
    GPA_CHECK(gpa.CloseContext());
    ReleaseWorkload(&w);
    GPA_CHECK(gpa.Destroy());
    dlclose(library);
    printf("wrote %s\n", csv);
    return EXIT_SUCCESS;
}
