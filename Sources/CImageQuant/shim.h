// libimagequant (Debian libimagequant-dev): RGBA to a palette of at most 256 colours, for PNG8.
#ifndef TEGULA_CIMAGEQUANT_SHIM_H
#define TEGULA_CIMAGEQUANT_SHIM_H
#include <libimagequant.h>
#endif
