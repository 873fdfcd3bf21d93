"""``rankeval trec QRELS RUN``: trec_eval's measures and output format."""

import argparse
import sys

from ..._metrics import RECALL_LEVELS
from .._options import nonnegative_int, positive_int
from .._progress import add_quiet_option, progress_of
from ._arrays import build_arrays
from ._intents import collapse, with_intents
from ._output import evaluate, format_lines
from ._read import read_qrels, read_run
from ._table import is_diversity, parse_measures

__all__ = ["add_parser"]

_EPILOG = """\
measures (-m, trec_eval's names and syntax; default: the official set,
runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank
iprec_at_recall P, as trec_eval):
  runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank
  infAP gm_bpref binG set_P set_relative_P set_recall set_map
  num_nonrel_judged_ret
  iprec_at_recall[.L1,L2,...]   levels with at most 2 decimals (default 0.00..1.00)
  P[.K1,K2,...] recall[.K..] ndcg_cut[.K..] map_cut[.K..] relative_P[.K..]
                                cutoffs (default 5,10,15,20,30,100,200,500,1000)
  success[.K..] (1,5,10)  unj[.K..] (5,10,20)  Rprec_mult[.X..] (0.2,...,2.0)
  utility[.a,b,c,d] (1,-1,0,0)  set_F[.beta] (1)  11pt_avg[..L1,L2,...]
  rbp[.p=P] rbp_resid[.p=P] (p=0.9)  relstring[.N] (10; printed with -q only)
  ndcg[.L1=G1,L2=G2,...] G[..] ndcg_rel[..] Rndcg[..] dcg[..] ideal_dcg[..]
                                gain of each relevance level (default: the
                                level), e.g. ndcg.1=3,2=9,4=4.5
  gauc                          ROC AUC within each query (not trec_eval's;
                                the mean over the queries with both classes)
  alpha_nDCG@K ERR_IA@K nERR_IA@K NRBP nNRBP P_IA@K AP_IA StRecall@K
                                diversity (ir_measures' names, ndeval's
                                rules; or the library's: alpha_ndcg@K,
                                err_ia@K, ...): the qrels are then ndeval's,
                                query subtopic document relevance, a document
                                judged once per subtopic; the other measures
                                read each document's largest grade
  Also accepted: the printed names (P_10, iprec_at_recall_0.50); official;
  all_trec (trec_eval's: every measure above but dcg, ideal_dcg, gauc); all.
  Cutoffs are read as trec_eval does (atol: ndcg_cut.23.4 is ndcg_cut_23).

As trec_eval: documents are ranked by score, ties by document id in decreasing
order; a judged document the run did not retrieve counts as relevant-not-
retrieved; run queries without judgments are ignored; a judged query without a
relevant document scores 0; the 'all' line is the mean over the queries (counts:
the sum).  iprec_at_recall and 11pt_avg reproduce trec_eval 10 (its test files
out.test*) by default, and trec_eval 9 / pytrec_eval with --trec-eval-9: they
differ in when a recall level counts as reached (lround(l*R) vs int(l*R+0.9)
relevant documents).
"""


def add_parser(sub):
    p = sub.add_parser(
        "trec", help="trec_eval-compatible evaluation of a TREC run",
        description="Evaluate a TREC run against qrels; print trec_eval's "
                    "output format: measure<TAB>query|all<TAB>value.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("qrels", metavar="QRELS",
                   help="qrels file: query iteration document relevance")
    p.add_argument("run", metavar="RUN",
                   help="run file: query Q0 document rank score tag")
    p.add_argument("-m", "--measure", action="append", metavar="MEASURE",
                   help="measure to print, repeatable, e.g. -m map -m P.5,10 "
                        "(default: all)")
    p.add_argument("-q", "--per-query", action="store_true",
                   help="also print the value of each query")
    p.add_argument("-c", "--complete", action="store_true",
                   help="average over every judged query, those missing from "
                        "the run scoring 0 (trec_eval -c)")
    p.add_argument("-M", "--max-docs", type=positive_int, default=None,
                   metavar="N", help="evaluate the first N documents of each "
                                     "query only (trec_eval -M)")
    p.add_argument("-l", "--level", type=nonnegative_int, default=1, metavar="N",
                   help="smallest relevance counted as relevant (default 1, "
                        "trec_eval -l)")
    p.add_argument("-n", "--no-summary", action="store_true",
                   help="do not print the 'all' lines (trec_eval -n)")
    p.add_argument("-J", "--judged-only", action="store_true",
                   help="remove the retrieved documents that are not judged "
                        "(absent from the qrels or judged negative) before "
                        "ranking (trec_eval -J)")
    p.add_argument("-N", "--num-docs", type=nonnegative_int, default=0,
                   metavar="N",
                   help="documents in the collection, for utility's fourth "
                        "coefficient (default 0, trec_eval -N)")
    p.add_argument("--digits", type=nonnegative_int, default=4, metavar="N",
                   help="decimals of the values (default 4, as trec_eval; "
                        "e.g. 12 for exact comparisons)")
    p.add_argument("--recall-levels", choices=RECALL_LEVELS,
                   default="trec_eval_10",
                   help="when iprec_at_recall / 11pt_avg count a recall level "
                        "l as reached with R relevant documents: trec_eval_10 "
                        "(default, lround(l*R), as trec_eval 10 and its test "
                        "files), trec_eval_9 (int(l*R+0.9), as trec_eval 9 and "
                        "pytrec_eval), exact (ceil(l*R))")
    p.add_argument("--trec-eval-9", dest="recall_levels", action="store_const",
                   const="trec_eval_9",
                   help="short for --recall-levels trec_eval_9 (pytrec_eval's "
                        "numbers)")
    add_quiet_option(p)
    p.set_defaults(handler=run)


def run(args):
    """trec_eval's measures for a qrels file and a run file."""
    measures = parse_measures(args.measure)
    # a diversity measure reads ndeval's qrels: a subtopic per line
    subtopics = any(is_diversity(m) for m, _ in measures)
    progress = progress_of(args)
    qrels = read_qrels(args.qrels, progress=progress.rows(args.qrels),
                       subtopics=subtopics)
    ranking, run_id = read_run(args.run, progress=progress.rows(args.run))
    progress.close()
    arrays = build_arrays(
        collapse(qrels) if subtopics else qrels, ranking,
        relevance_level=args.level, max_docs=args.max_docs,
        complete=args.complete, run_id=run_id, judged_only=args.judged_only,
    )
    if subtopics:
        arrays = with_intents(arrays, qrels)
    rows = evaluate(arrays, measures, per_query=args.per_query,
                    recall_levels=args.recall_levels, num_docs=args.num_docs)
    lines = format_lines(arrays, rows, digits=args.digits,
                         summary=not args.no_summary)
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0
