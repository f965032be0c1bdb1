// Names of GPA's enumerations as the API reports them.
#pragma once

#include "GPUPerfAPITypes.h"

namespace gpa {

// "GPA_STATUS_OK", ...; "Unknown Error" for values outside the enumeration. Never null.
const char* StatusName(GPA_Status status);
// "gpa_uint64", ...; null for values outside the enumeration.
const char* DataTypeName(GPA_Type type);
// "percentage", ...; null for values outside the enumeration.
const char* UsageTypeName(GPA_Usage_Type usage);

}  // namespace gpa
