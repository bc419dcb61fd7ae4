#ifndef CBZIP2_SHIM_H
#define CBZIP2_SHIM_H
#include <bzlib.h>
#endif
