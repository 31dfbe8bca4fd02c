// libdeflate (Debian libdeflate-dev): whole-buffer zlib streams and CRC-32 for PNG encoding.
#ifndef TEGULA_CDEFLATE_SHIM_H
#define TEGULA_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
