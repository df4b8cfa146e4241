#pragma once
// GMime 3's functions, taken from libgmime-3.0.so.0 on first use (LazyLibrary): its headers give
// the types, the library is not linked. GLib's and GObject's few functions come from the same
// handle (dlsym searches the library's dependencies). Linux only: the Windows build has no GMime.
// Internal to the mail reader.
#include <gmime/gmime.h>

#include <string>

namespace mcpread::readers::mail::gmime {

struct Api {
  decltype(&::g_mime_init) init;
  decltype(&::g_mime_stream_mem_new_with_buffer) stream_mem_new_with_buffer;
  decltype(&::g_mime_stream_mem_new) stream_mem_new;
  decltype(&::g_mime_stream_mem_get_byte_array) stream_mem_get_byte_array;
  decltype(&::g_mime_stream_null_new) stream_null_new;
  decltype(&::g_mime_stream_length) stream_length;
  decltype(&::g_mime_stream_fs_new) stream_fs_new;
  decltype(&::g_mime_parser_new_with_stream) parser_new_with_stream;
  decltype(&::g_mime_parser_set_format) parser_set_format;
  decltype(&::g_mime_parser_construct_message) parser_construct_message;
  decltype(&::g_mime_parser_eos) parser_eos;
  decltype(&::g_mime_parser_tell) parser_tell;
  decltype(&::g_mime_parser_get_mbox_marker_offset) parser_get_mbox_marker_offset;
  decltype(&::g_mime_message_get_from) message_get_from;
  decltype(&::g_mime_message_get_reply_to) message_get_reply_to;
  decltype(&::g_mime_message_get_addresses) message_get_addresses;
  decltype(&::g_mime_message_get_subject) message_get_subject;
  decltype(&::g_mime_message_get_mime_part) message_get_mime_part;
  decltype(&::internet_address_list_length) address_list_length;
  decltype(&::internet_address_list_to_string) address_list_to_string;
  decltype(&::g_mime_object_get_header) object_get_header;
  decltype(&::g_mime_object_get_content_type) object_get_content_type;
  decltype(&::g_mime_object_get_content_disposition) object_get_content_disposition;
  decltype(&::g_mime_object_write_to_stream) object_write_to_stream;
  decltype(&::g_mime_content_type_get_media_type) content_type_get_media_type;
  decltype(&::g_mime_content_type_get_media_subtype) content_type_get_media_subtype;
  decltype(&::g_mime_content_disposition_is_attachment) disposition_is_attachment;
  decltype(&::g_mime_multipart_get_count) multipart_get_count;
  decltype(&::g_mime_multipart_get_part) multipart_get_part;
  decltype(&::g_mime_message_part_get_message) message_part_get_message;
  decltype(&::g_mime_part_get_filename) part_get_filename;
  decltype(&::g_mime_part_get_content) part_get_content;
  decltype(&::g_mime_data_wrapper_write_to_stream) data_wrapper_write_to_stream;
  decltype(&::g_mime_text_part_get_text) text_part_get_text;
  decltype(&::g_mime_multipart_get_type) multipart_get_type;
  decltype(&::g_mime_message_part_get_type) message_part_get_type;
  decltype(&::g_mime_part_get_type) part_get_type;
  decltype(&::g_mime_text_part_get_type) text_part_get_type;
  decltype(&::g_type_check_instance_is_a) type_check_instance_is_a;
  decltype(&::g_object_unref) object_unref;
  decltype(&::g_free) free;

  bool is(void* object, GType (*type)()) const {
    return object != nullptr && type_check_instance_is_a(static_cast<GTypeInstance*>(object), type());
  }
};

// The table, GMime started; nullptr with *error ("Reading e-mail needs GMime 3 (...): ...").
const Api* api(std::string* error);

// Drops a GObject reference when it goes out of scope.
template <class T>
struct Ref {
  const Api* api;
  T* object;
  Ref(const Api* a, T* o) : api(a), object(o) {}
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  ~Ref() {
    if (object != nullptr) api->object_unref(object);
  }
  T* get() const { return object; }
};

}  // namespace mcpread::readers::mail::gmime
