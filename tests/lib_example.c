/* A program of libyinsh's users: compiled against the installed header and
 * library with `pkg-config --cflags --libs yinsh` (lib_install_check.sh)
 * and run. It plays a few actions, lists legal ones, reads the planes and
 * asks an agent, printing what lib_install_check.sh expects. */
#include <stdio.h>
#include <string.h>
#include <yinsh.h>

#define MOVES "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard"

static int fail(const char *what, int rc, const char *err)
{
    fprintf(stderr, "lib_example: %s: %s (%s)\n", what, err, yinsh_error_name(rc));
    return 1;
}

int main(void)
{
    char err[YINSH_ERR_LEN], ypn[YINSH_YPN_LEN], legal[YINSH_LEGAL_TEXT_LEN], action[YINSH_ACTION_LEN];
    int rc;
    if (yinsh_api_version() != YINSH_API_VERSION) {
        fprintf(stderr, "lib_example: library API %d, header %d\n", yinsh_api_version(), YINSH_API_VERSION);
        return 1;
    }
    printf("api %d\n", yinsh_api_version());

    yinsh_position *p;
    if ((rc = yinsh_position_new(&p, YINSH_STANDARD, err))) return fail("start", rc, err);
    if ((rc = yinsh_position_apply_text(p, "e5", err))) return fail("e5", rc, err);
    yinsh_position_ypn(p, ypn);
    printf("after e5: %s\n", ypn);
    yinsh_position_free(p);

    if ((rc = yinsh_position_from_ypn(&p, MOVES, err))) return fail("YPN", rc, err);
    int n = yinsh_position_legal_text(p, legal, sizeof legal);
    legal[strlen("e10-b7 e10-c8 e10-d9")] = '\0';
    printf("legal %d: %s ...\n", n, legal);
    float planes[YINSH_OBSERVATION];
    yinsh_position_planes(p, YINSH_VIEW_ACTOR, planes);
    int rings = 0;
    for (int c = 0; c < YINSH_CELLS; c++) rings += planes[YINSH_PLANE_OWN_RINGS * YINSH_CELLS + c] == 1.0f;
    printf("own rings %d, pool %.0f\n", rings, planes[YINSH_PLANE_POOL * YINSH_CELLS + 59] * 51);

    yinsh_agent *a;
    if ((rc = yinsh_agent_new(&a, "ab:depth=2", 1, err))) return fail("agent", rc, err);
    int index;
    yinsh_move_stats st;
    if ((rc = yinsh_agent_choose(a, p, &index, &st, err))) return fail("choose", rc, err);
    uint8_t mask[YINSH_ACTIONS];
    yinsh_position_legal_mask(p, mask);
    yinsh_action_text(index, action);
    printf("ab:depth=2 chooses a legal action: %s, depth %d\n", mask[index] && action[0] ? "yes" : "no", st.depth);
    yinsh_agent_free(a);
    yinsh_position_free(p);
    return 0;
}
