# The shipped weights files (eval/weights/*.txt) as one C source: a table
# `const char *const YINSH_WEIGHTS_FILES[]` of file names and texts, in
# pairs, ended by NULL, which weights_load reads when a path names a
# shipped file that is not there (eval/evaluation.h, weights_shipped).
#   cmake -DOUT=file.c -DDIR=eval/weights -P embed_weights.cmake
file(GLOB FILES "${DIR}/*.txt")
list(SORT FILES)
set(body "/* Generated from the .txt files of eval/weights by cmake/embed_weights.cmake: do not edit. */\n#include <stddef.h>\n")
set(table "")
set(i 0)
foreach(f ${FILES})
  get_filename_component(name ${f} NAME)
  file(READ "${f}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND body "static const char W${i}[] = {${bytes} 0};\n")
  string(APPEND table "    \"${name}\", W${i},\n")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND body "const char *const YINSH_WEIGHTS_FILES[] = {\n${table}    NULL,\n};\n")
file(WRITE "${OUT}.tmp" "${body}")
file(RENAME "${OUT}.tmp" "${OUT}")
