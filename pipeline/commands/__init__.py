"""Commands: one module per ``python -m pipeline COMMAND``.

Each defines ``command`` (a :class:`click.Command` built by :func:`pipeline.options.command`:
its name, its one-line help, its typed options) and ``run(args)``: the parsed options (one
namespace) -> the run's frozen settings -> one call of the run (read -> core -> write ->
summary) -> the exit status, or the run's :class:`pipeline.runs.settings.RunResult` (its
``settings`` go into ``run.json``). The command line stays here: the runs take settings objects.

A command module may import every other layer, and no other module may import a command module.
"""


def corpus_spec(args):
    """The :class:`pipeline.formats.books.CorpusSpec` of parsed
    :func:`pipeline.options.corpus_options` (checked when built)."""
    from pipeline.formats.books import CorpusSpec

    return CorpusSpec(path=str(args.corpus), layout=args.layout, text_column=args.text_column,
                      id_column=args.id_column, title_column=args.title_column, book_sentences=args.book_sentences,
                      keep_duplicates=args.keep_duplicates, language=args.language.strip(),
                      min_words=args.min_words, metadata=args.metadata, where=tuple(args.where),
                      limit_books=args.limit_books)
