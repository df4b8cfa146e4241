#ifndef _WIN32
#include "mail/gmime_api.hpp"

#include "mcpread/common/lazy_library.hpp"

namespace mcpread::readers::mail::gmime {

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "Reading e-mail needs GMime 3 (Debian package libgmime-3.0-0)", .candidates = {"libgmime-3.0.so.0"}},
      [](SymbolBinder& bind, Api& a) {
        const bool bound =
            bind(&a.init, "g_mime_init") && bind(&a.stream_mem_new_with_buffer, "g_mime_stream_mem_new_with_buffer") &&
            bind(&a.stream_mem_new, "g_mime_stream_mem_new") &&
            bind(&a.stream_mem_get_byte_array, "g_mime_stream_mem_get_byte_array") &&
            bind(&a.stream_null_new, "g_mime_stream_null_new") && bind(&a.stream_length, "g_mime_stream_length") &&
            bind(&a.stream_fs_new, "g_mime_stream_fs_new") &&
            bind(&a.parser_new_with_stream, "g_mime_parser_new_with_stream") &&
            bind(&a.parser_set_format, "g_mime_parser_set_format") &&
            bind(&a.parser_construct_message, "g_mime_parser_construct_message") &&
            bind(&a.parser_eos, "g_mime_parser_eos") && bind(&a.parser_tell, "g_mime_parser_tell") &&
            bind(&a.parser_get_mbox_marker_offset, "g_mime_parser_get_mbox_marker_offset") &&
            bind(&a.message_get_from, "g_mime_message_get_from") &&
            bind(&a.message_get_reply_to, "g_mime_message_get_reply_to") &&
            bind(&a.message_get_addresses, "g_mime_message_get_addresses") &&
            bind(&a.message_get_subject, "g_mime_message_get_subject") &&
            bind(&a.message_get_mime_part, "g_mime_message_get_mime_part") &&
            bind(&a.address_list_length, "internet_address_list_length") &&
            bind(&a.address_list_to_string, "internet_address_list_to_string") &&
            bind(&a.object_get_header, "g_mime_object_get_header") &&
            bind(&a.object_get_content_type, "g_mime_object_get_content_type") &&
            bind(&a.object_get_content_disposition, "g_mime_object_get_content_disposition") &&
            bind(&a.object_write_to_stream, "g_mime_object_write_to_stream") &&
            bind(&a.content_type_get_media_type, "g_mime_content_type_get_media_type") &&
            bind(&a.content_type_get_media_subtype, "g_mime_content_type_get_media_subtype") &&
            bind(&a.disposition_is_attachment, "g_mime_content_disposition_is_attachment") &&
            bind(&a.multipart_get_count, "g_mime_multipart_get_count") &&
            bind(&a.multipart_get_part, "g_mime_multipart_get_part") &&
            bind(&a.message_part_get_message, "g_mime_message_part_get_message") &&
            bind(&a.part_get_filename, "g_mime_part_get_filename") &&
            bind(&a.part_get_content, "g_mime_part_get_content") &&
            bind(&a.data_wrapper_write_to_stream, "g_mime_data_wrapper_write_to_stream") &&
            bind(&a.text_part_get_text, "g_mime_text_part_get_text") &&
            bind(&a.multipart_get_type, "g_mime_multipart_get_type") &&
            bind(&a.message_part_get_type, "g_mime_message_part_get_type") &&
            bind(&a.part_get_type, "g_mime_part_get_type") && bind(&a.text_part_get_type, "g_mime_text_part_get_type") &&
            // GObject's and GLib's, from GMime's dependencies.
            bind(&a.type_check_instance_is_a, "g_type_check_instance_is_a") &&
            bind(&a.object_unref, "g_object_unref") && bind(&a.free, "g_free");
        if (!bound) return false;
        a.init();  // once: registers GMime's types and its charset tables
        return true;
      });
  return lib.get(error);
}

}  // namespace mcpread::readers::mail::gmime
#endif
