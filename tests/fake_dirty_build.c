/* The provenance of a build of a work tree with changes not committed
 * (what cmake/provenance.cmake writes for one), linked into yinsh_dirty in
 * place of the generated file: test_study_runs sees `yinsh study` refuse it. */
const char YINSH_GIT_COMMIT[] = "0123456789ab-dirty";
const char YINSH_COMPILER[] = "made up for the test";
