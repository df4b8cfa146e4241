#pragma once
// djvulibre (libdjvulibre.so.21), loaded on first use with dlopen: <libdjvu/ddjvuapi.h> and
// <libdjvu/miniexp.h> are included for their types and prototypes only. Not on Windows, whose
// build has no djvulibre: the reader refuses there. Internal to the DjVu reader.
#if !defined(_WIN32)
#include <libdjvu/ddjvuapi.h>
#include <libdjvu/miniexp.h>

#include <string>

namespace mcpread::readers::djvu {

struct Api {
  decltype(&::ddjvu_context_create) context_create;
  decltype(&::ddjvu_context_release) context_release;
  decltype(&::ddjvu_cache_set_size) cache_set_size;
  decltype(&::ddjvu_message_peek) message_peek;
  decltype(&::ddjvu_message_pop) message_pop;
  decltype(&::ddjvu_job_status) job_status;
  decltype(&::ddjvu_job_release) job_release;
  decltype(&::ddjvu_document_create) document_create;
  decltype(&::ddjvu_document_job) document_job;
  decltype(&::ddjvu_stream_write) stream_write;
  decltype(&::ddjvu_stream_close) stream_close;
  decltype(&::ddjvu_document_get_pagenum) document_get_pagenum;
  decltype(&::ddjvu_document_get_pageinfo_imp) document_get_pageinfo;
  decltype(&::ddjvu_document_get_pagetext) document_get_pagetext;
  decltype(&::ddjvu_document_get_anno) document_get_anno;
  decltype(&::ddjvu_miniexp_release) miniexp_release;
  decltype(&::ddjvu_anno_get_metadata_keys) anno_get_metadata_keys;
  decltype(&::ddjvu_anno_get_metadata) anno_get_metadata;
  decltype(&::ddjvu_page_create_by_pageno) page_create_by_pageno;
  decltype(&::ddjvu_page_job) page_job;
  decltype(&::ddjvu_page_get_width) page_get_width;
  decltype(&::ddjvu_page_get_height) page_get_height;
  decltype(&::ddjvu_page_render) page_render;
  decltype(&::ddjvu_format_create) format_create;
  decltype(&::ddjvu_format_set_row_order) format_set_row_order;
  decltype(&::ddjvu_format_set_y_direction) format_set_y_direction;
  decltype(&::ddjvu_format_release) format_release;
  decltype(&::miniexp_to_name) to_name;
  decltype(&::miniexp_stringp) stringp;
  decltype(&::miniexp_to_str) to_str;
};

// djvulibre's functions; nullptr when the library cannot be loaded, *error then saying why and
// which package brings it.
const Api* api(std::string* error);

}  // namespace mcpread::readers::djvu
#endif
