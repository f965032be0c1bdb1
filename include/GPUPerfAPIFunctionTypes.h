/*
 * One function-pointer typedef per GPA function, named <FunctionName>PtrType
 * (for example GPA_InitializePtrType), for programs that load the library with dlopen/dlsym.
 */
#ifndef GPUPERFAPI_FUNCTION_TYPES_H_
#define GPUPERFAPI_FUNCTION_TYPES_H_

#include "GPUPerfAPITypes.h"

#define GPA_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) typedef ReturnType(*Name##PtrType) ParameterList;
#define OGPA_EXTENSION_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) typedef ReturnType(*Name##PtrType) ParameterList;
#include "GPUPerfAPIFunctionList.h"
#undef GPA_FUNCTION
#undef OGPA_EXTENSION_FUNCTION

#endif /* GPUPERFAPI_FUNCTION_TYPES_H_ */
