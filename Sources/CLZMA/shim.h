#ifndef CLZMA_SHIM_H
#define CLZMA_SHIM_H
#include <lzma.h>
#endif
