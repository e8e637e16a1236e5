/* The summaries of a training (train_summary.h). */
#include "eval/train_summary.h"
#include <math.h>
#include "engine/base/parallel.h"

static void print_loss(FILE *f, double x)
{
    if (isnan(x)) fprintf(f, " %9s", "-");
    else fprintf(f, " %9.5f", x);
}

static void print_losses(FILE *sum, double (*losses)[2][2], bool baseline)
{
    fprintf(sum, "log-loss        train(target) val(target) train(result) val(result)\n");
    const char *names[4] = {"constant", "linear", "float", "quantised"};
    for (int k = 0; k < 4; k++) {
        if (k == 1 && !baseline) continue;
        double(*l)[2] = losses[k];
        fprintf(sum, "%-14s", names[k]);
        print_loss(sum, l[0][0]);
        fprintf(sum, "    ");
        print_loss(sum, l[1][0]);
        fprintf(sum, "    ");
        print_loss(sum, l[0][1]);
        fprintf(sum, "  ");
        print_loss(sum, l[1][1]);
        fprintf(sum, "\n");
    }
}

/* The data: games, positions, what was left out; the start; the net. */
static void print_data(FILE *sum, const NnueTrainSummary *s)
{
    const NnueTrainOptions *o = s->o;
    const NnueData *data = s->data;
    fprintf(sum, "data: %llu games (%llu validation; %llu repeated action sequences and %lld stored repeats left out), "
           "%zu positions (%zu validation), %zu with a search value, lambda %g\n",
           (unsigned long long)data->games, (unsigned long long)data->games_val, (unsigned long long)data->duplicates,
           (long long)s->repeats, data->n_train + data->n_val, data->n_val, data->with_value, o->lambda);
    if (o->max_positions || o->quiet_only)
        fprintf(sum, "cut: %llu games past --positions %zu, %llu positions not quiet left out\n",
                (unsigned long long)data->capped, o->max_positions, (unsigned long long)data->noisy);
    if (s->start)
        fprintf(sum, "started from: %s (content hash %016llx)\n", s->init, (unsigned long long)nnue_hash(s->start));
    fprintf(sum, "net: %d inputs x 2 x %d hidden%s%.0d%s, seed %llu, %d epochs, batch %d, lr %g\n", NNUE_FEATURES,
           o->hidden, o->l2 ? ", second layer " : "", o->l2, o->patterns ? ", linear and pattern parts" : o->linear ? ", linear part" : "",
           (unsigned long long)o->seed, o->epochs, o->batch, o->lr);
}

void nnue_train_summary_write(FILE *sum, const NnueTrainSummary *s)
{
    const NnueTrained *tr = s->tr;
    print_data(sum, s);
    fprintf(sum, "epoch      lr     train  val(target)  val(result)   seconds\n");
    for (int i = 0; i < tr->epochs; i++) {
        const NnueEpoch *h = &tr->history[i];
        fprintf(sum, "%5d %7.2g", h->epoch, h->lr);
        print_loss(sum, h->train);
        fprintf(sum, "   ");
        print_loss(sum, h->val_target);
        fprintf(sum, "    ");
        print_loss(sum, h->val_result);
        fprintf(sum, "  %8.1f\n", h->seconds);
    }
    print_losses(sum, s->losses, s->baseline);
    fprintf(sum, "time: read %.1f s, trained %.1f s (%.0f positions/s on %d threads)\n", s->read_s, tr->seconds,
           tr->seconds > 0 ? (double)tr->positions / tr->seconds : 0, parallel_threads(s->o->threads));
    fprintf(sum, "wrote %s: %zu bytes, content hash %016llx\n", s->out, tr->len, (unsigned long long)nnue_hash(s->net));
}

static void print_figure(FILE *f, const char *name, const PolicyEpoch *e)
{
    fprintf(f, "%-34s cross-entropy %.4f, top-1 %.1f%%", name, e->val_loss, 100 * e->val_top1);
    if (!isnan(e->val_loss_child))
        fprintf(f, "; child values: %.4f, %.1f%%", e->val_loss_child, 100 * e->val_top1_child);
    if (!isnan(e->val_value)) fprintf(f, "; value log-loss %.5f", e->val_value);
    fputc('\n', f);
}

void policy_train_summary_write(FILE *sum, const PolicyTrainSummary *s)
{
    const PolicyTrainOptions *o = s->o;
    const PolicyData *d = s->d;
    fprintf(sum, "data: %llu games, %zu positions with a choice (%llu held out), %llu with stored visits, read in "
                 "%.1f s\n",
            (unsigned long long)d->games, d->count, (unsigned long long)d->positions_val,
            (unsigned long long)d->with_visits, s->read_s);
    if (d->reduced)
        fprintf(sum, "data: %llu positions of reduced searches (playout cap) %s\n", (unsigned long long)d->reduced,
                o->reduced_too ? "kept, trained on their child-value targets alone" : "left out");
    if (o->widen > nnue_hidden(s->net))
        fprintf(sum, "head: on %s (%d hidden a side, widened to %d)", s->init, nnue_hidden(s->net), o->widen);
    else
        fprintf(sum, "head: on %s (%d hidden a side)", s->init, nnue_hidden(s->net));
    fprintf(sum, ", seed %llu, %d epochs, batch %d, lr %g, trained in %.1f s\n", (unsigned long long)o->seed, o->epochs,
            o->batch, o->lr, s->train_s);
    if (d->positions_val == 0) {
        /* too few games for a game of them to be held out at this share */
        fprintf(sum, "held-out positions: none (%llu games at --val %g hold none out: no figures)\n",
                (unsigned long long)d->games, o->val_frac);
    } else {
        fprintf(sum, "held-out positions:\n");
        print_figure(sum, s->direct ? "  uniform priors (no head)" : "  children's values alone (no head)", &s->fig[0]);
        if (d->ctarget) {
            PolicyEpoch c;
            policy_measure_child_prior(d, &c);
            char name[64];
            snprintf(name, sizeof name, "  child values at T %g as priors", o->child_temp);
            print_figure(sum, name, &c);
        }
        if (!isnan(s->fig[1].val_loss)) print_figure(sum, "  the net's head before (warm start)", &s->fig[1]);
        print_figure(sum, o->joint > 0 ? "  the quantised joint net" : "  the quantised head", &s->fig[2]);
    }
    fprintf(sum, "wrote %s: %zu bytes\n", s->out, s->len);
}

void nnue_data_read_write(FILE *f, const NnueData *d, int64_t repeats, double read_s)
{
    fprintf(f,
            "yinsh train: %zu positions (%zu validation, %zu with a search value) from %llu games read in %.1f s "
            "(%llu repeated action sequences and %lld stored repeats left out; %llu games past --positions, "
            "%llu positions not quiet)\n",
            d->n_train + d->n_val, d->n_val, d->with_value, (unsigned long long)d->games, read_s,
            (unsigned long long)d->duplicates, (long long)repeats, (unsigned long long)d->capped,
            (unsigned long long)d->noisy);
}

void nnue_resume_write(FILE *f, const char *ckpt, bool resumed, int epoch, size_t position, size_t n_train)
{
    if (!resumed) fprintf(f, "yinsh train: no checkpoint %s: starting afresh\n", ckpt);
    else fprintf(f, "yinsh train: resuming %s at epoch %d, position %zu of %zu\n", ckpt, epoch + 1, position, n_train);
}

void nnue_epoch_write(FILE *f, const NnueEpoch *ep, int epochs, size_t n_train)
{
    fprintf(f, "epoch %d/%d: train %.5f, validation %.5f (result %.5f), lr %.2g, %.1f s, %.0f positions/s\n", ep->epoch,
            epochs, ep->train, ep->val_target, ep->val_result, ep->lr, ep->seconds,
            ep->seconds > 0 ? n_train / ep->seconds : 0);
}

void policy_epoch_write(FILE *f, const PolicyEpoch *e)
{
    fprintf(f, "yinsh train: policy epoch %d: train %.4f, held out %.4f, top-1 %.1f%%", e->epoch, e->train_loss,
            e->val_loss, 100 * e->val_top1);
    if (!isnan(e->val_loss_child)) fprintf(f, "; child values %.4f, %.1f%%", e->val_loss_child, 100 * e->val_top1_child);
    if (!isnan(e->val_value)) fprintf(f, "; value %.5f", e->val_value);
    fputc('\n', f);
}
