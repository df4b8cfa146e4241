# The encoding_rs shim (readers/src/charset/whatwg_decoder/): a static library that cargo builds
# offline from Debian's crate, for the host or for a Rust target triple. Makes the imported target
# mcpread::whatwg_decoder and the step that builds it, mcpread_whatwg_decoder_build; the caller
# adds what Rust's standard library needs from the system (it differs between Linux and Windows).
# Needs MCPREAD_CARGO, MCPREAD_RUSTC and CMAKE_OBJCOPY.
function(mcpread_add_whatwg_shim build_dir rust_target)
  set(src ${PROJECT_SOURCE_DIR}/readers/src/charset/whatwg_decoder)
  if(rust_target)
    set(target_args --target ${rust_target})
    set(cargo_lib ${build_dir}/target/${rust_target}/release/libmcpread_whatwg_decoder.a)
  else()
    set(target_args "")
    set(cargo_lib ${build_dir}/target/release/libmcpread_whatwg_decoder.a)
  endif()
  # The archive linked is cargo's without debug information: Debian's Rust standard library
  # carries its own, which would add about 13 MB to mcp-read.
  set(lib ${build_dir}/libmcpread_whatwg_decoder.a)
  if(NOT CMAKE_OBJCOPY)
    message(FATAL_ERROR "objcopy (binutils) is needed to strip the encoding_rs shim")
  endif()
  # CARGO_HOME inside the build directory holds the offline configuration, so that the user's own
  # ~/.cargo neither changes the build nor is written to.
  add_custom_command(OUTPUT ${lib}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${build_dir}/cargo-home ${build_dir}/crate/src
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${src}/cargo-config.toml ${build_dir}/cargo-home/config.toml
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${src}/Cargo.toml ${build_dir}/crate/
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${src}/src/lib.rs ${build_dir}/crate/src/
    COMMAND ${CMAKE_COMMAND} -E env CARGO_HOME=${build_dir}/cargo-home RUSTC=${MCPREAD_RUSTC}
      ${MCPREAD_CARGO} build --release --offline --quiet
      --manifest-path ${build_dir}/crate/Cargo.toml --target-dir ${build_dir}/target ${target_args}
    COMMAND ${CMAKE_OBJCOPY} --strip-debug ${cargo_lib} ${lib}
    DEPENDS ${src}/Cargo.toml ${src}/cargo-config.toml ${src}/src/lib.rs
    COMMENT "Building the encoding_rs shim with cargo ${rust_target}"
    VERBATIM)
  add_custom_target(mcpread_whatwg_decoder_build DEPENDS ${lib})
  add_library(mcpread_whatwg_decoder STATIC IMPORTED GLOBAL)
  add_library(mcpread::whatwg_decoder ALIAS mcpread_whatwg_decoder)
  set_target_properties(mcpread_whatwg_decoder PROPERTIES IMPORTED_LOCATION ${lib})
endfunction()
