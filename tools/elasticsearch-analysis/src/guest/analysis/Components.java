package guest.analysis;

import java.io.Reader;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.analysis.AbstractCharFilterFactory;
import org.elasticsearch.index.analysis.AbstractIndexAnalyzerProvider;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.analysis.AbstractTokenizerFactory;
import org.elasticsearch.index.analysis.AnalyzerProvider;
import org.elasticsearch.index.analysis.CharFilterFactory;
import org.elasticsearch.index.analysis.NormalizingCharFilterFactory;
import org.elasticsearch.index.analysis.NormalizingTokenFilterFactory;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;

/** Small factories around plain Lucene classes, so that each registration is one line. */
final class Components {
    private Components() {}

    /** A token filter that is not applied to the terms of multi-term queries (prefix, wildcard, fuzzy). */
    static TokenFilterFactory filter(String name, Function<TokenStream, TokenStream> create) {
        return new AbstractTokenFilterFactory(name) {
            @Override
            public TokenStream create(TokenStream in) {
                return create.apply(in);
            }
        };
    }

    /** A token filter that also normalizes multi-term query terms and may be used in normalizers. */
    static TokenFilterFactory normalizing(String name, Function<TokenStream, TokenStream> create) {
        return new NormalizingFilter(name, create);
    }

    private static final class NormalizingFilter extends AbstractTokenFilterFactory implements NormalizingTokenFilterFactory {
        private final Function<TokenStream, TokenStream> create;

        NormalizingFilter(String name, Function<TokenStream, TokenStream> create) {
            super(name);
            this.create = create;
        }

        @Override
        public TokenStream create(TokenStream in) {
            return create.apply(in);
        }
    }

    static TokenizerFactory tokenizer(String name, Supplier<Tokenizer> create) {
        return new AbstractTokenizerFactory(name) {
            @Override
            public Tokenizer create() {
                return create.get();
            }
        };
    }

    static CharFilterFactory charFilter(String name, Function<Reader, Reader> create) {
        return new AbstractCharFilterFactory(name) {
            @Override
            public Reader create(Reader in) {
                return create.apply(in);
            }
        };
    }

    static CharFilterFactory normalizingCharFilter(String name, Function<Reader, Reader> create) {
        return new NormalizingChar(name, create);
    }

    private static final class NormalizingChar extends AbstractCharFilterFactory implements NormalizingCharFilterFactory {
        private final Function<Reader, Reader> create;

        NormalizingChar(String name, Function<Reader, Reader> create) {
            super(name);
            this.create = create;
        }

        @Override
        public Reader create(Reader in) {
            return create.apply(in);
        }
    }

    /** An analyzer built once per index (like the engines' language analyzer providers). */
    static <A extends Analyzer> AnalyzerProvider<A> analyzer(String name, A analyzer) {
        return new AbstractIndexAnalyzerProvider<A>(name) {
            @Override
            public A get() {
                return analyzer;
            }
        };
    }

    /** Lower-cased string setting, with a default. */
    static String lower(Settings settings, String key, String fallback) {
        String v = settings.get(key);
        return v == null ? fallback : v.toLowerCase(Locale.ROOT);
    }

    static List<String> list(Settings settings, String key) {
        List<String> v = settings.getAsList(key, Collections.emptyList());
        return v == null ? Collections.emptyList() : v;
    }
}
