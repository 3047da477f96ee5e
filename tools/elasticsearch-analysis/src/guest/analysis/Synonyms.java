package guest.analysis;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.text.ParseException;
import java.util.List;
import java.util.function.Function;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.synonym.SolrSynonymParser;
import org.apache.lucene.analysis.synonym.SynonymFilter;
import org.apache.lucene.analysis.synonym.SynonymGraphFilter;
import org.apache.lucene.analysis.synonym.SynonymMap;
import org.apache.lucene.analysis.synonym.WordnetSynonymParser;
import org.apache.lucene.util.CharsRef;
import org.apache.lucene.util.CharsRefBuilder;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexService.IndexCreationContext;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.analysis.Analysis;
import org.elasticsearch.index.analysis.CharFilterFactory;
import org.elasticsearch.index.analysis.CustomAnalyzer;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;

/**
 * synonym and synonym_graph: rules inline ({@code synonyms}) or from a file under the config
 * directory ({@code synonyms_path}), Solr (default) or WordNet {@code format}, {@code expand}
 * (true), {@code lenient} (false). The rules are analysed with the chain that precedes the filter
 * (char filters, tokenizer, earlier token filters), as the engines do. Synonym sets stored in the
 * engine ({@code synonyms_set}) and {@code updateable} are not supported here.
 */
final class Synonyms extends AbstractTokenFilterFactory {
    private final boolean graph;
    private final Environment env;
    private final Settings settings;
    private final boolean expand;
    private final boolean lenient;
    private final String format;

    Synonyms(Environment env, String name, Settings settings, boolean graph) {
        super(name);
        this.graph = graph;
        this.env = env;
        this.settings = settings;
        if (settings.hasValue("synonyms_set")) {
            throw new IllegalArgumentException("[synonyms_set] is not supported by the project's analysis plugin: use [synonyms]");
        }
        if (settings.getAsBoolean("updateable", false)) {
            throw new IllegalArgumentException("[updateable] synonyms are not supported by the project's analysis plugin");
        }
        if (!settings.hasValue("synonyms") && !settings.hasValue("synonyms_path")) {
            throw new IllegalArgumentException("synonym requires either `synonyms`, `synonyms_set` or `synonyms_path` to be configured");
        }
        this.expand = settings.getAsBoolean("expand", true);
        this.lenient = settings.getAsBoolean("lenient", false);
        this.format = settings.get("format", "");
    }

    @Override
    public TokenStream create(TokenStream in) {
        throw new IllegalStateException("Call getChainAwareTokenFilterFactory to specialize this factory for an analysis chain first");
    }

    @Override
    public TokenFilterFactory getChainAwareTokenFilterFactory(
        IndexCreationContext context,
        TokenizerFactory tokenizer,
        List<CharFilterFactory> charFilters,
        List<TokenFilterFactory> previous,
        Function<String, TokenFilterFactory> allFilters
    ) {
        Analyzer analyzer = new CustomAnalyzer(
            tokenizer,
            charFilters.toArray(new CharFilterFactory[0]),
            previous.stream().map(TokenFilterFactory::getSynonymFilter).toArray(TokenFilterFactory[]::new)
        );
        SynonymMap map = build(analyzer);
        String name = name();
        boolean isGraph = graph;
        return new TokenFilterFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public TokenStream create(TokenStream in) {
                if (map.fst == null) return in;
                return isGraph ? new SynonymGraphFilter(in, map, false) : new SynonymFilter(in, map, false);
            }

            @Override
            public TokenFilterFactory getSynonymFilter() {
                // synonyms are not applied to the rules of a later synonym filter
                return IDENTITY_FILTER;
            }
        };
    }

    private SynonymMap build(Analyzer analyzer) {
        String origin = settings.hasValue("synonyms") ? "'" + name() + "' analyzer settings" : settings.get("synonyms_path");
        try {
            Reader rules;
            if (settings.hasValue("synonyms")) {
                StringBuilder sb = new StringBuilder();
                for (String line : Analysis.getWordList(env, settings, "synonyms")) sb.append(line).append(System.lineSeparator());
                rules = new StringReader(sb.toString());
            } else {
                rules = Analysis.getReaderFromFile(env, settings.get("synonyms_path"), "synonyms");
            }
            if ("wordnet".equalsIgnoreCase(format)) {
                WordnetSynonymParser parser = new LenientWordnet(expand, lenient, analyzer);
                parser.parse(rules);
                return parser.build();
            }
            SolrSynonymParser parser = new LenientSolr(expand, lenient, analyzer);
            parser.parse(rules);
            return parser.build();
        } catch (IOException | ParseException | RuntimeException e) {
            throw new IllegalArgumentException("failed to build synonyms from [" + origin + "]", e);
        }
    }

    /** With lenient, a rule whose words the chain cannot analyse is skipped instead of failing. */
    private static final class LenientSolr extends SolrSynonymParser {
        private final boolean lenient;

        LenientSolr(boolean expand, boolean lenient, Analyzer analyzer) {
            super(true, expand, analyzer);
            this.lenient = lenient;
        }

        @Override
        public void add(CharsRef input, CharsRef output, boolean includeOrig) {
            if (!lenient || (input.length > 0 && output.length > 0)) super.add(input, output, includeOrig);
        }

        @Override
        public CharsRef analyze(String text, CharsRefBuilder reuse) throws IOException {
            try {
                return super.analyze(text, reuse);
            } catch (IllegalArgumentException e) {
                if (lenient) return new CharsRef("");
                throw e;
            }
        }
    }

    private static final class LenientWordnet extends WordnetSynonymParser {
        private final boolean lenient;

        LenientWordnet(boolean expand, boolean lenient, Analyzer analyzer) {
            super(true, expand, analyzer);
            this.lenient = lenient;
        }

        @Override
        public void add(CharsRef input, CharsRef output, boolean includeOrig) {
            if (!lenient || (input.length > 0 && output.length > 0)) super.add(input, output, includeOrig);
        }

        @Override
        public CharsRef analyze(String text, CharsRefBuilder reuse) throws IOException {
            try {
                return super.analyze(text, reuse);
            } catch (IllegalArgumentException e) {
                if (lenient) return new CharsRef("");
                throw e;
            }
        }
    }
}
