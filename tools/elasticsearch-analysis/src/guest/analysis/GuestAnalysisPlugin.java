package guest.analysis;

import static guest.analysis.Components.analyzer;
import static guest.analysis.Components.charFilter;
import static guest.analysis.Components.filter;
import static guest.analysis.Components.normalizing;
import static guest.analysis.Components.normalizingCharFilter;
import static guest.analysis.Components.tokenizer;
import static org.elasticsearch.plugins.AnalysisPlugin.requiresAnalysisSettings;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.ibm.icu.text.FilteredNormalizer2;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.Transliterator;
import com.ibm.icu.text.UnicodeSet;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.charfilter.HTMLStripCharFilter;
import org.apache.lucene.analysis.charfilter.MappingCharFilter;
import org.apache.lucene.analysis.charfilter.NormalizeCharMap;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.classic.ClassicFilter;
import org.apache.lucene.analysis.classic.ClassicTokenizer;
import org.apache.lucene.analysis.cn.smart.HMMChineseTokenizer;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.core.DecimalDigitFilter;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.core.LetterTokenizer;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.core.StopAnalyzer;
import org.apache.lucene.analysis.core.UpperCaseFilter;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.el.GreekLowerCaseFilter;
import org.apache.lucene.analysis.email.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishMinimalStemFilter;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.KStemFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.ga.IrishLowerCaseFilter;
import org.apache.lucene.analysis.icu.ICUFoldingFilter;
import org.apache.lucene.analysis.icu.ICUNormalizer2CharFilter;
import org.apache.lucene.analysis.icu.ICUNormalizer2Filter;
import org.apache.lucene.analysis.icu.ICUTransformFilter;
import org.apache.lucene.analysis.icu.segmentation.ICUTokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.miscellaneous.KeywordRepeatFilter;
import org.apache.lucene.analysis.miscellaneous.LengthFilter;
import org.apache.lucene.analysis.miscellaneous.LimitTokenCountFilter;
import org.apache.lucene.analysis.miscellaneous.PatternKeywordMarkerFilter;
import org.apache.lucene.analysis.miscellaneous.RemoveDuplicatesTokenFilter;
import org.apache.lucene.analysis.miscellaneous.SetKeywordMarkerFilter;
import org.apache.lucene.analysis.miscellaneous.TrimFilter;
import org.apache.lucene.analysis.miscellaneous.TruncateTokenFilter;
import org.apache.lucene.analysis.pattern.PatternReplaceCharFilter;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.reverse.ReverseStringFilter;
import org.apache.lucene.analysis.ru.RussianAnalyzer;
import org.apache.lucene.analysis.ru.RussianLightStemFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.th.ThaiAnalyzer;
import org.apache.lucene.analysis.th.ThaiTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tr.ApostropheFilter;
import org.apache.lucene.analysis.tr.TurkishLowerCaseFilter;
import org.apache.lucene.analysis.util.ElisionFilter;
import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.regex.Regex;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.Analysis;
import org.elasticsearch.index.analysis.AnalyzerProvider;
import org.elasticsearch.index.analysis.CharFilterFactory;
import org.elasticsearch.index.analysis.PreBuiltAnalyzerProviderFactory;
import org.elasticsearch.index.analysis.PreConfiguredTokenFilter;
import org.elasticsearch.index.analysis.PreConfiguredTokenizer;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.indices.analysis.PreBuiltCacheFactory.CachingStrategy;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.RestHandler;
import org.tartarus.snowball.ext.EnglishStemmer;
import org.tartarus.snowball.ext.RussianStemmer;

/**
 * The analysis components the guest API's mappings use, for the Elasticsearch distribution of
 * Maven Central that lacks the analysis-common, analysis-icu and analysis-smartcn modules. Same
 * names and parameters as those modules (and as OpenSearch's), built from Lucene's own classes;
 * scripts/check-analyzers.ts proves token by token that both engines agree.
 *
 * Not provided (fail at index creation with "unknown type"): word_delimiter(_graph), hyphenation
 * and dictionary decompounders, common_grams, min_hash, multiplexer, condition, predicate,
 * pattern_capture, pattern_replace (token filter), stemmer languages other than those in
 * {@link #stemmer}, language analyzers other than english/russian/thai/cjk, icu_collation.
 *
 * Also answers {@code GET /} as the rest-root module of a full distribution does ({@link RootHandler}).
 */
public class GuestAnalysisPlugin extends Plugin implements AnalysisPlugin, ActionPlugin {

    private final AtomicReference<ClusterService> clusterService = new AtomicReference<>();

    @Override
    public Collection<?> createComponents(PluginServices services) {
        clusterService.set(services.clusterService());
        return List.of();
    }

    @Override
    public Collection<RestHandler> getRestHandlers(
        RestHandlersServices services,
        Supplier<DiscoveryNodes> nodes,
        Predicate<NodeFeature> clusterSupportsFeature
    ) {
        return List.of(new RootHandler(clusterService::get));
    }

    // ---------------------------------------------------------------- analyzers

    @Override
    public Map<String, AnalysisProvider<AnalyzerProvider<? extends Analyzer>>> getAnalyzers() {
        Map<String, AnalysisProvider<AnalyzerProvider<? extends Analyzer>>> m = new TreeMap<>();
        m.put("english", (i, env, name, s) -> analyzer(name, new EnglishAnalyzer(
            Analysis.parseStopWords(env, s, EnglishAnalyzer.getDefaultStopSet()),
            Analysis.parseStemExclusion(s, CharArraySet.EMPTY_SET))));
        m.put("russian", (i, env, name, s) -> analyzer(name, new RussianAnalyzer(
            Analysis.parseStopWords(env, s, RussianAnalyzer.getDefaultStopSet()),
            Analysis.parseStemExclusion(s, CharArraySet.EMPTY_SET))));
        m.put("thai", (i, env, name, s) -> analyzer(name, new ThaiAnalyzer(
            Analysis.parseStopWords(env, s, ThaiAnalyzer.getDefaultStopSet()))));
        m.put("cjk", (i, env, name, s) -> analyzer(name, new CJKAnalyzer(
            Analysis.parseStopWords(env, s, CJKAnalyzer.getDefaultStopSet()))));
        m.put("smartcn", (i, env, name, s) -> analyzer(name, new SmartChineseAnalyzer(
            Analysis.parseStopWords(env, s, SmartChineseAnalyzer.getDefaultStopSet()))));
        m.put("icu_analyzer", GuestAnalysisPlugin::icuAnalyzer);
        m.put("simple", (i, env, name, s) -> analyzer(name, new SimpleAnalyzer()));
        m.put("whitespace", (i, env, name, s) -> analyzer(name, new WhitespaceAnalyzer()));
        m.put("keyword", (i, env, name, s) -> analyzer(name, new KeywordAnalyzer()));
        m.put("stop", (i, env, name, s) -> analyzer(name, new StopAnalyzer(
            Analysis.parseStopWords(env, s, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET))));
        return m;
    }

    @Override
    public List<PreBuiltAnalyzerProviderFactory> getPreBuiltAnalyzerProviderFactories() {
        List<PreBuiltAnalyzerProviderFactory> l = new ArrayList<>();
        l.add(new PreBuiltAnalyzerProviderFactory("english", CachingStrategy.LUCENE, EnglishAnalyzer::new));
        l.add(new PreBuiltAnalyzerProviderFactory("russian", CachingStrategy.LUCENE, RussianAnalyzer::new));
        l.add(new PreBuiltAnalyzerProviderFactory("thai", CachingStrategy.LUCENE, ThaiAnalyzer::new));
        l.add(new PreBuiltAnalyzerProviderFactory("cjk", CachingStrategy.LUCENE, CJKAnalyzer::new));
        return l;
    }

    private static AnalyzerProvider<? extends Analyzer> icuAnalyzer(IndexSettings i, Environment env, String name, Settings s) {
        String method = s.get("method", "nfkc_cf");
        String mode = s.get("mode", "compose");
        if (!"compose".equals(mode) && !"decompose".equals(mode)) {
            throw new IllegalArgumentException("Unknown mode [" + mode + "] in analyzer [" + name + "], expected one of [compose, decompose]");
        }
        Normalizer2 normalizer = withUnicodeSetFilter(
            Normalizer2.getInstance(null, method, "compose".equals(mode) ? Normalizer2.Mode.COMPOSE : Normalizer2.Mode.DECOMPOSE), s);
        return analyzer(name, new Analyzer() {
            @Override
            protected java.io.Reader initReader(String fieldName, java.io.Reader reader) {
                return new ICUNormalizer2CharFilter(reader, normalizer);
            }

            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer source = new ICUTokenizer();
                return new TokenStreamComponents(source, new ICUFoldingFilter(source));
            }
        });
    }

    // ---------------------------------------------------------------- tokenizers

    @Override
    public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
        Map<String, AnalysisProvider<TokenizerFactory>> m = new TreeMap<>();
        m.put("thai", (i, env, name, s) -> tokenizer(name, ThaiTokenizer::new));
        m.put("icu_tokenizer", (i, env, name, s) -> {
            if (!Components.list(s, "rule_files").isEmpty()) {
                throw new IllegalArgumentException("[rule_files] of icu_tokenizer is not supported by the project's analysis plugin");
            }
            // the default configuration: CJK as words (dictionary), Myanmar as words
            return tokenizer(name, ICUTokenizer::new);
        });
        m.put("smartcn_tokenizer", (i, env, name, s) -> tokenizer(name, HMMChineseTokenizer::new));
        m.put("edge_ngram", NGrams::edgeTokenizer);
        m.put("ngram", NGrams::tokenizer);
        m.put("whitespace", (i, env, name, s) -> {
            int max = maxTokenLength(s);
            return tokenizer(name, () -> new WhitespaceTokenizer(TokenStream.DEFAULT_TOKEN_ATTRIBUTE_FACTORY, max));
        });
        m.put("keyword", (i, env, name, s) -> {
            int buffer = s.getAsInt("buffer_size", 256);
            return tokenizer(name, () -> new KeywordTokenizer(buffer));
        });
        m.put("letter", (i, env, name, s) -> tokenizer(name, LetterTokenizer::new));
        m.put("classic", (i, env, name, s) -> {
            int max = maxTokenLength(s);
            return tokenizer(name, () -> {
                ClassicTokenizer t = new ClassicTokenizer();
                t.setMaxTokenLength(max);
                return t;
            });
        });
        m.put("uax_url_email", (i, env, name, s) -> {
            int max = maxTokenLength(s);
            return tokenizer(name, () -> {
                UAX29URLEmailTokenizer t = new UAX29URLEmailTokenizer();
                t.setMaxTokenLength(max);
                return t;
            });
        });
        m.put("pattern", (i, env, name, s) -> {
            String regex = s.get("pattern", "\\W+");
            Pattern p = Regex.compile(regex, s.get("flags"));
            int group = s.getAsInt("group", -1);
            return tokenizer(name, () -> new PatternTokenizer(p, group));
        });
        return m;
    }

    private static int maxTokenLength(Settings s) {
        int max = s.getAsInt("max_token_length", 255);
        if (max > 1024 * 1024) throw new IllegalArgumentException("max_token_length may not exceed " + 1024 * 1024);
        return max;
    }

    @Override
    public List<PreConfiguredTokenizer> getPreConfiguredTokenizers() {
        List<PreConfiguredTokenizer> l = new ArrayList<>();
        l.add(PreConfiguredTokenizer.singleton("thai", ThaiTokenizer::new));
        l.add(PreConfiguredTokenizer.singleton("whitespace", WhitespaceTokenizer::new));
        l.add(PreConfiguredTokenizer.singleton("keyword", KeywordTokenizer::new));
        l.add(PreConfiguredTokenizer.singleton("letter", LetterTokenizer::new));
        l.add(PreConfiguredTokenizer.singleton("classic", ClassicTokenizer::new));
        l.add(PreConfiguredTokenizer.singleton("uax_url_email", UAX29URLEmailTokenizer::new));
        return l;
    }

    // ---------------------------------------------------------------- token filters

    @Override
    public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
        Map<String, AnalysisProvider<TokenFilterFactory>> m = new TreeMap<>();
        // the server itself has stop, shingle and the pre-configured lowercase (no "type": "lowercase")
        m.put("lowercase", (i, env, name, s) -> {
            String language = s.get("language");
            if (language == null) return normalizing(name, LowerCaseFilter::new);
            return switch (language.toLowerCase(Locale.ROOT)) {
                case "greek" -> normalizing(name, GreekLowerCaseFilter::new);
                case "irish" -> normalizing(name, IrishLowerCaseFilter::new);
                case "turkish" -> normalizing(name, TurkishLowerCaseFilter::new);
                default -> throw new IllegalArgumentException("language [" + language + "] not support for lower case");
            };
        });
        m.put("uppercase", (i, env, name, s) -> normalizing(name, UpperCaseFilter::new));
        m.put("decimal_digit", (i, env, name, s) -> normalizing(name, DecimalDigitFilter::new));
        m.put("asciifolding", (i, env, name, s) -> {
            boolean preserve = s.getAsBoolean("preserve_original", false);
            return normalizing(name, in -> new ASCIIFoldingFilter(in, preserve));
        });
        m.put("cjk_width", (i, env, name, s) -> normalizing(name, CJKWidthFilter::new));
        m.put("cjk_bigram", GuestAnalysisPlugin::cjkBigram);
        m.put("edge_ngram", NGrams::edgeFilter);
        m.put("ngram", NGrams::filter);
        m.put("stemmer", (i, env, name, s) -> stemmer(name, s.get("language", s.get("name", "porter"))));
        m.put("snowball", (i, env, name, s) -> {
            String language = s.get("language", "English");
            return filter(name, in -> new SnowballFilter(in, language));
        });
        m.put("porter_stem", (i, env, name, s) -> filter(name, PorterStemFilter::new));
        m.put("kstem", (i, env, name, s) -> filter(name, KStemFilter::new));
        m.put("russian_stem", (i, env, name, s) -> filter(name, in -> new SnowballFilter(in, new RussianStemmer())));
        m.put("keyword_marker", requiresAnalysisSettings(GuestAnalysisPlugin::keywordMarker));
        m.put("synonym", requiresAnalysisSettings((i, env, name, s) -> new Synonyms(env, name, s, false)));
        m.put("synonym_graph", requiresAnalysisSettings((i, env, name, s) -> new Synonyms(env, name, s, true)));
        m.put("elision", requiresAnalysisSettings((i, env, name, s) -> {
            CharArraySet articles = Analysis.parseArticles(env, s);
            if (articles == null) throw new IllegalArgumentException("elision filter requires [articles] or [articles_path] setting");
            return normalizing(name, in -> new ElisionFilter(in, articles));
        }));
        m.put("apostrophe", (i, env, name, s) -> filter(name, ApostropheFilter::new));
        m.put("classic", (i, env, name, s) -> filter(name, ClassicFilter::new));
        m.put("trim", (i, env, name, s) -> normalizing(name, TrimFilter::new));
        m.put("truncate", requiresAnalysisSettings((i, env, name, s) -> {
            int length = s.getAsInt("length", -1);
            if (length <= 0) throw new IllegalArgumentException("length parameter must be provided");
            return filter(name, in -> new TruncateTokenFilter(in, length));
        }));
        m.put("unique", (i, env, name, s) -> {
            boolean samePosition = s.getAsBoolean("only_on_same_position", false);
            return filter(name, in -> new Unique(in, samePosition));
        });
        m.put("remove_duplicates", (i, env, name, s) -> filter(name, RemoveDuplicatesTokenFilter::new));
        m.put("length", (i, env, name, s) -> {
            int min = s.getAsInt("min", 0);
            int max = s.getAsInt("max", Integer.MAX_VALUE);
            return filter(name, in -> new LengthFilter(in, min, max));
        });
        m.put("limit", (i, env, name, s) -> {
            int max = s.getAsInt("max_token_count", 1);
            boolean all = s.getAsBoolean("consume_all_tokens", false);
            return filter(name, in -> new LimitTokenCountFilter(in, max, all));
        });
        m.put("reverse", (i, env, name, s) -> filter(name, ReverseStringFilter::new));
        m.put("flatten_graph", (i, env, name, s) -> filter(name, FlattenGraphFilter::new));
        m.put("icu_folding", (i, env, name, s) -> {
            Normalizer2 n = withUnicodeSetFilter(ICUFoldingFilter.NORMALIZER, s);
            return normalizing(name, in -> new ICUFoldingFilter(in, n));
        });
        m.put("icu_normalizer", (i, env, name, s) -> {
            Normalizer2 n = withUnicodeSetFilter(Normalizer2.getInstance(null, s.get("name", "nfkc_cf"), Normalizer2.Mode.COMPOSE), s);
            return normalizing(name, in -> new ICUNormalizer2Filter(in, n));
        });
        m.put("icu_transform", (i, env, name, s) -> {
            String id = s.get("id", "Null");
            int dir = "reverse".equals(s.get("dir", "forward")) ? Transliterator.REVERSE : Transliterator.FORWARD;
            Transliterator t = Transliterator.getInstance(id, dir);
            return normalizing(name, in -> new ICUTransformFilter(in, t));
        });
        m.put("smartcn_stop", (i, env, name, s) -> {
            CharArraySet stop = Analysis.parseStopWords(env, s, SmartChineseAnalyzer.getDefaultStopSet());
            return filter(name, in -> new StopFilter(in, stop));
        });
        return m;
    }

    /** The stemmer filter for the languages the project may need; others fail clearly. */
    private static TokenFilterFactory stemmer(String name, String language) {
        Function<TokenStream, TokenStream> f = switch (language.toLowerCase(Locale.ROOT).replace('-', '_')) {
            case "english", "porter" -> PorterStemFilter::new;
            case "porter2" -> in -> new SnowballFilter(in, new EnglishStemmer());
            case "light_english", "kstem" -> KStemFilter::new;
            case "minimal_english" -> EnglishMinimalStemFilter::new;
            case "possessive_english" -> EnglishPossessiveFilter::new;
            case "russian" -> in -> new SnowballFilter(in, new RussianStemmer());
            case "light_russian" -> RussianLightStemFilter::new;
            default -> throw new IllegalArgumentException(
                "stemmer language [" + language + "] is not provided by the project's analysis plugin "
                    + "(english, porter, porter2, light_english, minimal_english, possessive_english, russian, light_russian)"
            );
        };
        return filter(name, f);
    }

    private static TokenFilterFactory cjkBigram(IndexSettings i, Environment env, String name, Settings s) {
        int flags = CJKBigramFilter.HAN | CJKBigramFilter.HIRAGANA | CJKBigramFilter.KATAKANA | CJKBigramFilter.HANGUL;
        for (String script : Components.list(s, "ignored_scripts")) {
            switch (script) {
                case "han" -> flags &= ~CJKBigramFilter.HAN;
                case "hiragana" -> flags &= ~CJKBigramFilter.HIRAGANA;
                case "katakana" -> flags &= ~CJKBigramFilter.KATAKANA;
                case "hangul" -> flags &= ~CJKBigramFilter.HANGUL;
                default -> { /* the engines ignore unknown script names */ }
            }
        }
        boolean unigrams = s.getAsBoolean("output_unigrams", false);
        int f = flags;
        return filter(name, in -> new CJKBigramFilter(in, f, unigrams));
    }

    private static TokenFilterFactory keywordMarker(IndexSettings i, Environment env, String name, Settings s) {
        boolean ignoreCase = s.getAsBoolean("ignore_case", false);
        String pattern = s.get("keywords_pattern");
        boolean hasWords = s.hasValue("keywords") || s.hasValue("keywords_path");
        if (pattern != null && hasWords) {
            throw new IllegalArgumentException("cannot specify both `keywords_pattern` and `keywords` or `keywords_path`");
        }
        if (pattern != null) {
            Pattern p = Pattern.compile(pattern);
            return filter(name, in -> new PatternKeywordMarkerFilter(in, p));
        }
        Set<?> words = Analysis.getWordSet(env, s, "keywords");
        if (words == null) {
            throw new IllegalArgumentException("keyword filter requires either `keywords`, `keywords_path`, or `keywords_pattern` to be configured");
        }
        CharArraySet set = new CharArraySet(words, ignoreCase);
        return filter(name, in -> new SetKeywordMarkerFilter(in, set));
    }

    @Override
    public List<PreConfiguredTokenFilter> getPreConfiguredTokenFilters() {
        List<PreConfiguredTokenFilter> l = new ArrayList<>();
        l.add(PreConfiguredTokenFilter.singleton("apostrophe", false, ApostropheFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("asciifolding", true, ASCIIFoldingFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("cjk_bigram", false, CJKBigramFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("cjk_width", true, CJKWidthFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("classic", false, ClassicFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("decimal_digit", true, DecimalDigitFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("flatten_graph", false, false, FlattenGraphFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("keyword_repeat", false, false, KeywordRepeatFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("kstem", false, KStemFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("porter_stem", false, PorterStemFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("remove_duplicates", false, RemoveDuplicatesTokenFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("reverse", false, ReverseStringFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("russian_stem", false, in -> new SnowballFilter(in, "Russian")));
        l.add(PreConfiguredTokenFilter.singleton("snowball", false, in -> new SnowballFilter(in, "English")));
        l.add(PreConfiguredTokenFilter.singleton("trim", true, TrimFilter::new));
        l.add(PreConfiguredTokenFilter.singleton("unique", false, in -> new Unique(in, false)));
        l.add(PreConfiguredTokenFilter.singleton("uppercase", true, UpperCaseFilter::new));
        return l;
    }

    // ---------------------------------------------------------------- char filters

    @Override
    public Map<String, AnalysisProvider<CharFilterFactory>> getCharFilters() {
        Map<String, AnalysisProvider<CharFilterFactory>> m = new TreeMap<>();
        m.put("html_strip", (i, env, name, s) -> {
            Set<String> escaped = Set.copyOf(Components.list(s, "escaped_tags"));
            return charFilter(name, in -> escaped.isEmpty() ? new HTMLStripCharFilter(in) : new HTMLStripCharFilter(in, escaped));
        });
        m.put("mapping", requiresAnalysisSettings((i, env, name, s) -> {
            List<String> rules = Analysis.getWordList(env, s, "mappings");
            if (rules == null) throw new IllegalArgumentException("mapping requires either `mappings` or `mappings_path` to be configured");
            NormalizeCharMap map = mappingRules(rules);
            return normalizingCharFilter(name, in -> new MappingCharFilter(map, in));
        }));
        m.put("pattern_replace", requiresAnalysisSettings((i, env, name, s) -> {
            String regex = s.get("pattern");
            if (regex == null) throw new IllegalArgumentException("pattern is missing for [" + name + "] char filter of type 'pattern_replace'");
            Pattern p = Regex.compile(regex, s.get("flags"));
            String replacement = s.get("replacement", "");
            return normalizingCharFilter(name, in -> new PatternReplaceCharFilter(p, replacement, in));
        }));
        m.put("icu_normalizer", (i, env, name, s) -> {
            String method = s.get("name", "nfkc_cf");
            Normalizer2.Mode mode = "decompose".equals(s.get("mode")) ? Normalizer2.Mode.DECOMPOSE : Normalizer2.Mode.COMPOSE;
            Normalizer2 n = withUnicodeSetFilter(Normalizer2.getInstance(null, method, mode), s);
            return normalizingCharFilter(name, in -> new ICUNormalizer2CharFilter(in, n));
        });
        return m;
    }

    private static final Pattern RULE = Pattern.compile("(.*)\\s*=>\\s*(.*)\\s*$");

    /** "a => b" lines, with the engines' escapes (\\, \t, \n, \r, \b, \f, \\uXXXX). */
    static NormalizeCharMap mappingRules(List<String> rules) {
        NormalizeCharMap.Builder b = new NormalizeCharMap.Builder();
        for (String rule : rules) {
            Matcher m = RULE.matcher(rule);
            if (!m.find()) throw new RuntimeException("Invalid Mapping Rule : [" + rule + "]");
            String lhs = unescape(m.group(1).trim());
            String rhs = unescape(m.group(2).trim());
            if (lhs.isEmpty()) throw new RuntimeException("Invalid Mapping Rule : [" + rule + "]. Illegal mapping.");
            b.add(lhs, rhs);
        }
        return b.build();
    }

    private static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                switch (n) {
                    case '\\' -> out.append('\\');
                    case '"' -> out.append('"');
                    case '\'' -> out.append('\'');
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (i + 4 >= s.length()) throw new RuntimeException("Invalid escaped char in [" + s + "]");
                        out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                    default -> out.append(n);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    static Normalizer2 withUnicodeSetFilter(Normalizer2 normalizer, Settings s) {
        String set = s.get("unicode_set_filter");
        if (set == null) return normalizer;
        UnicodeSet u = new UnicodeSet(set);
        u.freeze();
        return new FilteredNormalizer2(normalizer, u);
    }

    /** Drops a token whose text was seen before (optionally only at the same position). */
    static final class Unique extends TokenFilter {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final PositionIncrementAttribute posInc = addAttribute(PositionIncrementAttribute.class);
        private final CharArraySet seen = new CharArraySet(8, false);
        private final boolean onlySamePosition;

        Unique(TokenStream in, boolean onlySamePosition) {
            super(in);
            this.onlySamePosition = onlySamePosition;
        }

        @Override
        public boolean incrementToken() throws IOException {
            while (input.incrementToken()) {
                char[] buf = term.buffer();
                int len = term.length();
                if (onlySamePosition && posInc.getPositionIncrement() > 0) seen.clear();
                if (seen.contains(buf, 0, len)) continue;
                char[] copy = new char[len];
                System.arraycopy(buf, 0, copy, 0, len);
                seen.add(copy);
                return true;
            }
            return false;
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            seen.clear();
        }
    }
}
