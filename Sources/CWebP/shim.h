// libwebp (Debian libwebp-dev): the advanced encoding API (WebPConfig, WebPPicture) and the
// simple decoding API.
#ifndef TEGULA_CWEBP_SHIM_H
#define TEGULA_CWEBP_SHIM_H
#include <webp/encode.h>
#include <webp/decode.h>

/// WebPConfigInit and WebPPictureInit are static inline wrappers around versioned functions;
/// these make the calls plain for Swift.
static inline int tegula_webp_config_init(WebPConfig *config, float quality) {
    return WebPConfigPreset(config, WEBP_PRESET_DEFAULT, quality);
}
static inline int tegula_webp_picture_init(WebPPicture *picture) { return WebPPictureInit(picture); }
static inline int tegula_webp_memory_writer_init(WebPMemoryWriter *writer) {
    WebPMemoryWriterInit(writer);
    return 1;
}
/// The writer callback as a function pointer Swift can store in WebPPicture.writer.
static inline void tegula_webp_use_memory_writer(WebPPicture *picture, WebPMemoryWriter *writer) {
    picture->writer = WebPMemoryWrite;
    picture->custom_ptr = writer;
}
#endif
