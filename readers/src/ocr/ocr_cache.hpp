#pragma once
// OCR results by (file identity, modification time, size, page, languages, resolution), least
// recently used first out, bounded in bytes: paging back through a scan costs nothing, and the
// memory held stays small (text only, never pixels).
#include "mcpread/readers/ocr.hpp"

namespace mcpread::readers::ocr {

constexpr std::size_t cache_max_bytes = 16u << 20;

std::optional<OcrPage> cache_find(const OcrKey& key);
void cache_store(const OcrKey& key, const OcrPage& page);
void cache_clear();

}  // namespace mcpread::readers::ocr
