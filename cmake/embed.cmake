# Turns a text file into a C source defining `const char NAME[]` with the
# file's bytes and a terminating 0, and `const unsigned long NAME_SIZE`
# with their number less the 0 (a binary file, such as a net, may hold
# zeros of its own): cmake -DIN=file -DOUT=file.c -DNAME=SYMBOL -P embed.cmake
file(READ "${IN}" hex HEX)
# each byte cast: a byte of 0x80 or more does not fit a signed char as it is
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "(char)0x\\1," bytes "${hex}")
file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by cmake/embed.cmake: do not edit. */\nconst char ${NAME}[] = {${bytes} 0};\nconst unsigned long ${NAME}_SIZE = sizeof ${NAME} - 1;\n")
file(RENAME "${OUT}.tmp" "${OUT}")
