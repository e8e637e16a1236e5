# Turns a text file into a C source defining `const char NAME[]` with the
# file's bytes: cmake -DIN=file -DOUT=file.c -DNAME=SYMBOL -P embed.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by cmake/embed.cmake: do not edit. */\nconst char ${NAME}[] = {${bytes} 0};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
