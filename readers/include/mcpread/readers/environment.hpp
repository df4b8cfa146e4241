#pragma once
// What the readers need set in the process environment, done once at start-up, before any thread
// runs: setenv is not safe while other threads may call getenv (glibc, libvips and ImageMagick
// all do).

namespace mcpread::readers {

// In an install tree that ships ImageMagick's coders (the portable bundle's lib/ImageMagick/coders,
// for libvips 8.10, which reads BMP, ICO, PSD, ... through ImageMagick only), points
// MAGICK_CODER_MODULE_PATH at them; an explicit setting wins. Elsewhere it does nothing.
void prepare_environment();

}  // namespace mcpread::readers
