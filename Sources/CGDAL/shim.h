// The GDAL C API as Swift sees it, plus inline shims for what Swift cannot import:
// macros (CPLFree) and variadic functions (CPLError). No logic lives here.
#ifndef TEGULA_CGDAL_SHIM_H
#define TEGULA_CGDAL_SHIM_H

#include <gdal.h>
#include <gdal_alg.h>
#include <gdalwarper.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <cpl_minixml.h>
#include <cpl_virtualmem.h>

/// CPLFree is a macro around VSIFree.
static inline void tegula_cpl_free(void *pointer) { CPLFree(pointer); }

/// CPLError is variadic; report a preformatted message.
static inline void tegula_cpl_error(CPLErr level, CPLErrorNum code, const char *message) {
    CPLError(level, code, "%s", message);
}

/// The quiet handler, as a plain function pointer Swift can pass to CPLSetErrorHandler.
static inline void tegula_install_quiet_error_handler(void) {
    CPLSetErrorHandler(CPLQuietErrorHandler);
}

/// INIT_RASTERIO_EXTRA_ARG is a macro.
static inline void tegula_init_rasterio_extra_arg(GDALRasterIOExtraArg *arg) {
    INIT_RASTERIO_EXTRA_ARG(*arg);
}

#endif
