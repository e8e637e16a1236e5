# The files of one folder with one extension (the shipped weights,
# eval/weights/*.txt, and nets, eval/nets/*.nnue; the commands' usage
# texts, cli/usage/*.txt) as one C source: tables
# PREFIX_NAMES, PREFIX_BYTES and PREFIX_SIZES of their file names, bytes
# (each ended by a 0, so that a text reads as a C string) and sizes, in
# the same order, the names ended by NULL. weights_shipped and nnue_load
# read them when a path names a shipped file that is not there; cli_help
# prints a usage text.
#   cmake -DOUT=file.c -DDIR=eval/nets -DEXT=nnue -DPREFIX=YINSH_NET -P embed_dir.cmake
file(GLOB FILES "${DIR}/*.${EXT}")
list(SORT FILES)
get_filename_component(folder ${DIR} NAME)
get_filename_component(parent ${DIR} DIRECTORY)
get_filename_component(parent ${parent} NAME)
set(body "/* Generated from the .${EXT} files of ${parent}/${folder} by cmake/embed_dir.cmake: do not edit. */\n#include <stddef.h>\n")
set(names "")
set(datas "")
set(sizes "")
set(i 0)
foreach(f ${FILES})
  get_filename_component(name ${f} NAME)
  file(READ "${f}" hex HEX)
  string(LENGTH "${hex}" nhex)
  math(EXPR n "${nhex} / 2")
  # each byte cast: a byte of 0x80 or more does not fit a signed char as it is
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "(char)0x\\1," bytes "${hex}")
  string(APPEND body "static const char F${i}[] = {${bytes} 0};\n")
  string(APPEND names "    \"${name}\",\n")
  string(APPEND datas "    F${i},\n")
  string(APPEND sizes "    ${n}UL,\n")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND body "const char *const ${PREFIX}_NAMES[] = {\n${names}    NULL,\n};\n")
string(APPEND body "const char *const ${PREFIX}_BYTES[] = {\n${datas}    NULL,\n};\n")
string(APPEND body "const unsigned long ${PREFIX}_SIZES[] = {\n${sizes}    0,\n};\n")
file(WRITE "${OUT}.tmp" "${body}")
file(RENAME "${OUT}.tmp" "${OUT}")
