# The shipped nets (eval/nets/*.nnue) as one C source: tables of their
# file names, bytes and sizes, in the same order, the names ended by NULL,
# which nnue_load reads when a path names a shipped net that is not there
# and nnue_load_builtin reads for default.nnue (eval/nnue.h).
#   cmake -DOUT=file.c -DDIR=eval/nets -P embed_nets.cmake
file(GLOB FILES "${DIR}/*.nnue")
list(SORT FILES)
set(body "/* Generated from the .nnue files of eval/nets by cmake/embed_nets.cmake: do not edit. */\n#include <stddef.h>\n")
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
  string(APPEND body "static const char N${i}[] = {${bytes} 0};\n")
  string(APPEND names "    \"${name}\",\n")
  string(APPEND datas "    N${i},\n")
  string(APPEND sizes "    ${n}UL,\n")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND body "const char *const YINSH_NET_NAMES[] = {\n${names}    NULL,\n};\n")
string(APPEND body "const char *const YINSH_NET_BYTES[] = {\n${datas}    NULL,\n};\n")
string(APPEND body "const unsigned long YINSH_NET_SIZES[] = {\n${sizes}    0,\n};\n")
file(WRITE "${OUT}.tmp" "${body}")
file(RENAME "${OUT}.tmp" "${OUT}")
