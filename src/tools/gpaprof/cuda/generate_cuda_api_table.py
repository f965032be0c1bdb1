#!/usr/bin/env python3
"""Generates gpaprof's table of traced CUDA functions from the headers of the CUDA toolkit it is built with.

  generate_cuda_api_table.py <the six headers below> <output.inc>
  generate_cuda_api_table.py --markdown runtime_cbid.h driver_cbid.h runtime_meta.h driver_meta.h
      prints the published enumeration (docs/cuda_api_types.md)

Inputs (paths given on the command line):
  cupti_runtime_cbid.h, cupti_driver_cbid.h      CUPTI's callback ids: the number and name of every function
  generated_cuda_runtime_api_meta.h,
  generated_cuda_meta.h                          CUPTI's parameter structs, one per function
  driver_types.h, cuda.h                         the cudaError_t, CUresult and cudaMemcpyKind enumerators

Output: one C++ file (included by cuda_api_table.cpp) with
  - the runtime and driver functions: CUPTI callback id, the name the application called (CUPTI's version
    suffix _vNNNN dropped from runtime names), and a formatter that turns the parameter struct CUPTI hands to
    a callback into the .atp argument list (one AddArgument call per field; the C++ overloads in
    arg_format.h choose the format from the field's type);
  - which parameter structs are formatted from their bytes alone (raw call lines, raw_call_line.h), and their size;
  - name tables for the return codes and copy kinds.

Generating at build time keeps the table in step with the toolkit: a function CUDA adds is traced with its
arguments as soon as gpaprof is rebuilt, and the callback ids are CUPTI's own, which NVIDIA never renumbers.
"""
import re
import sys

# Parameters that are input arrays although their type is a non-const pointer: never dereferenced.
INPUT_POINTER_NAMES = {"kernelParams", "args", "extra", "argv", "config", "pArgs"}


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def parse_cbids(text, prefix):
    """[(cbid, enum suffix)] for every function callback id."""
    ids = []
    for name, value in re.findall(r"\b" + prefix + r"(\w+)\s*=\s*(\d+)\s*,", text):
        if name in ("INVALID", "SIZE", "FORCE_INT"):
            continue
        ids.append((int(value), name))
    return ids


def parse_params(text):
    """{struct base name: [(type text, field name)]} from the generated meta header."""
    structs = {}
    for base, body in re.findall(r"typedef struct (\w+)_params_st \{(.*?)\} \1_params;", text, re.S):
        fields = []
        for line in body.split(";"):
            line = " ".join(line.split())
            if not line:
                continue
            m = re.match(r"^(.*?[\s*])(\w+)$", line)
            if not m:
                raise SystemExit("cannot parse field '%s' of %s_params" % (line, base))
            fields.append((m.group(1).strip(), m.group(2)))
        structs[base] = fields
    return structs


def parse_enum(text, start_pattern, member_pattern):
    """[(name, value)] of the enumerators after the line matching start_pattern up to the closing brace."""
    m = re.search(start_pattern, text)
    if not m:
        return []
    body = text[m.end():text.index("}", m.end())]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    body = re.sub(r"//[^\n]*", "", body)
    members = []
    for name, value in re.findall(r"\b(" + member_pattern + r")\s*=\s*(0x[0-9a-fA-F]+|\d+)", body):
        members.append((name, int(value, 0)))
    return members


def api_name(domain, suffix):
    if domain == "runtime":
        return re.sub(r"_v\d{4,5}$", "", suffix)
    return suffix


def style(type_text, name):
    if name in INPUT_POINTER_NAMES:
        return "ArgStyle::Input"
    if "CUdeviceptr" in type_text:
        return "ArgStyle::Hex"
    return "ArgStyle::Plain"


def emit_domain(out, domain, cbids, structs):
    out.append("const CudaApiEntry k%sApis[] = {" % ("Runtime" if domain == "runtime" else "Driver"))
    for cbid, suffix in cbids:
        out.append('    {%d, "%s", %s},' % (cbid, api_name(domain, suffix),
                                              "true" if suffix in structs else "false"))
    out.append("};")
    out.append("")
    fn = "FormatRuntimeArguments" if domain == "runtime" else "FormatDriverArguments"
    out.append("bool %s(uint32_t cbid, const void* params, const ArgContext& context, ArgList* out) {"
               % fn)
    out.append("    switch (cbid) {")
    for cbid, suffix in cbids:
        fields = structs.get(suffix)
        if fields is None:
            continue
        out.append("        case %d: {" % cbid)
        if fields:
            out.append("            const auto* p = static_cast<const %s_params*>(params);" % suffix)
            for type_text, name in fields:
                out.append('            AddArgument(out, p->%s, %s, context);' % (name, style(type_text, name)))
        else:
            out.append("            (void)params;")
        out.append("            return true;")
        out.append("        }")
    out.append("        default:")
    out.append("            (void)params;")
    out.append("            (void)context;")
    out.append("            (void)out;")
    out.append("            return false;")
    out.append("    }")
    out.append("}")
    out.append("")
    # The size of a parameter struct whose arguments are formatted from its bytes alone (raw_call_line.h): 0 for a
    # function CUPTI does not describe (no arguments), -1 where formatting reads memory (strings, out-pointers).
    fn = "RuntimeRawParamsSize" if domain == "runtime" else "DriverRawParamsSize"
    out.append("int %s(uint32_t cbid) {" % fn)
    out.append("    switch (cbid) {")
    for cbid, suffix in cbids:
        fields = structs.get(suffix)
        if fields is None:
            out.append("        case %d: return 0;" % cbid)
            continue
        checks = " && ".join("FormatsWithoutReading<decltype(%s_params::%s)>(%s)" % (suffix, name, style(type_text, name))
                             for type_text, name in fields) or "true"
        out.append("        case %d: return RawSize<%s_params>(%s);" % (cbid, suffix, checks))
    out.append("        default:")
    out.append("            return -1;")
    out.append("    }")
    out.append("}")
    out.append("")
    fn = "RuntimeStreamArgument" if domain == "runtime" else "DriverStreamArgument"
    out.append("std::optional<uint64_t> %s(uint32_t cbid, const void* params) {" % fn)
    out.append("    switch (cbid) {")
    for cbid, suffix in cbids:
        for type_text, name in structs.get(suffix, []):
            if type_text in ("cudaStream_t", "CUstream"):
                out.append("        case %d: return reinterpret_cast<uintptr_t>(static_cast<const %s_params*>(params)->%s);"
                           % (cbid, suffix, name))
                break
    out.append("        default:")
    out.append("            (void)params;")
    out.append("            return std::nullopt;")
    out.append("    }")
    out.append("}")
    out.append("")


def emit_names(out, table, members):
    out.append("const CudaEnumName %s[] = {" % table)
    seen = set()
    for name, value in members:
        if value in seen:
            continue  # an alias of an earlier enumerator keeps the earlier name
        seen.add(value)
        out.append('    {%d, "%s"},' % (value, name))
    out.append("};")
    out.append("")


def classify(name):
    """The CudaApiClass of cuda_api_table.cpp, by name (kept in step with ClassifyApi)."""
    if "GraphLaunch" in name:
        return "graph launch"
    launch_prefixes = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cudaLaunch_", "cuLaunchKernel",
                       "cuLaunchCooperativeKernel", "cuLaunchGrid")
    if name.startswith(launch_prefixes) or name in ("cudaLaunch", "cuLaunch"):
        return "" if "MultiDevice" in name else "kernel launch"
    if name.startswith(("cudaMemcpy", "cuMemcpy")):
        return "" if "Batch" in name else "memcpy"
    if name.startswith(("cudaMemset", "cuMemset")):
        return "memset"
    return ""


def markdown(runtime_cbids, driver_cbids, runtime_structs, driver_structs):
    out = ["| API type | function | class | arguments |", "| ---: | --- | --- | --- |"]
    for cbid, suffix in runtime_cbids:
        out.append("| %d | `%s` | %s | %s |" % (cbid, api_name("runtime", suffix), classify(api_name("runtime", suffix)),
                                                "" if suffix in runtime_structs else "not described by CUPTI"))
    for cbid, suffix in driver_cbids:
        out.append("| %d | `%s` | %s | %s |" % (10000 + cbid, suffix, classify(suffix),
                                                "" if suffix in driver_structs else "not described by CUPTI"))
    return "\n".join(out)


def main(argv):
    if len(argv) == 6 and argv[1] == "--markdown":
        print(markdown(parse_cbids(read(argv[2]), "CUPTI_RUNTIME_TRACE_CBID_"),
                       parse_cbids(read(argv[3]), "CUPTI_DRIVER_TRACE_CBID_"),
                       parse_params(read(argv[4])), parse_params(read(argv[5]))))
        return
    if len(argv) != 8:
        raise SystemExit("usage: generate_cuda_api_table.py runtime_cbid.h driver_cbid.h runtime_meta.h driver_meta.h "
                         "driver_types.h cuda.h output.inc")
    runtime_cbids = parse_cbids(read(argv[1]), "CUPTI_RUNTIME_TRACE_CBID_")
    driver_cbids = parse_cbids(read(argv[2]), "CUPTI_DRIVER_TRACE_CBID_")
    runtime_structs = parse_params(read(argv[3]))
    driver_structs = parse_params(read(argv[4]))
    driver_types = read(argv[5])
    cuda_h = read(argv[6])
    errors = parse_enum(driver_types, r"enum\s+__device_builtin__\s+cudaError\s*\{", r"cuda\w+")
    results = parse_enum(cuda_h, r"typedef\s+enum\s+cudaError_enum\s*\{", r"CUDA_\w+")
    kinds = parse_enum(driver_types, r"enum\s+__device_builtin__\s+cudaMemcpyKind\s*\{", r"cudaMemcpy\w+")
    if not runtime_cbids or not driver_cbids or not runtime_structs or not driver_structs or not errors or not results:
        raise SystemExit("generate_cuda_api_table.py: a header did not have the expected layout")

    out = ["// Generated by src/tools/gpaprof/cuda/generate_cuda_api_table.py from the CUDA toolkit's headers.",
           "// Do not edit: rebuild instead.", ""]
    emit_domain(out, "runtime", runtime_cbids, runtime_structs)
    emit_domain(out, "driver", driver_cbids, driver_structs)
    emit_names(out, "kCudaErrorNames", errors)
    emit_names(out, "kCuResultNames", results)
    emit_names(out, "kMemcpyKindNames", kinds)
    with open(argv[7], "w", encoding="utf-8") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv)
