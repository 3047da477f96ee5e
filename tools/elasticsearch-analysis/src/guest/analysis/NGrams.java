package guest.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenFilter;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenizer;
import org.apache.lucene.analysis.ngram.NGramTokenFilter;
import org.apache.lucene.analysis.ngram.NGramTokenizer;
import org.apache.lucene.analysis.reverse.ReverseStringFilter;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;

/**
 * edge_ngram and ngram, tokenizers and token filters, with the engines' parameters: min_gram (1),
 * max_gram (2), token_chars / custom_token_chars (tokenizers), preserve_original (filters), side
 * (edge_ngram filter, front|back), and the index.max_ngram_diff limit for ngram.
 */
final class NGrams {
    private NGrams() {}

    /** Which characters belong to tokens; null = every character (no token_chars given). */
    static IntPredicate tokenChars(Settings settings) {
        List<String> classes = Components.list(settings, "token_chars");
        if (classes.isEmpty()) return null;
        List<IntPredicate> any = new ArrayList<>();
        for (String raw : classes) {
            String c = raw.toLowerCase(Locale.ROOT).trim();
            switch (c) {
                case "letter" -> any.add(Character::isLetter);
                case "digit" -> any.add(Character::isDigit);
                case "whitespace" -> any.add(Character::isWhitespace);
                case "punctuation" -> any.add(ch -> switch (Character.getType(ch)) {
                    case Character.START_PUNCTUATION, Character.END_PUNCTUATION, Character.OTHER_PUNCTUATION,
                        Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
                        Character.FINAL_QUOTE_PUNCTUATION -> true;
                    default -> false;
                });
                case "symbol" -> any.add(ch -> switch (Character.getType(ch)) {
                    case Character.CURRENCY_SYMBOL, Character.MATH_SYMBOL, Character.OTHER_SYMBOL, Character.MODIFIER_SYMBOL -> true;
                    default -> false;
                });
                case "custom" -> {
                    String custom = settings.get("custom_token_chars");
                    if (custom == null) {
                        throw new IllegalArgumentException("Token type: [custom] requires setting [custom_token_chars]");
                    }
                    int[] cps = custom.codePoints().toArray();
                    any.add(ch -> {
                        for (int cp : cps) if (cp == ch) return true;
                        return false;
                    });
                }
                default -> throw new IllegalArgumentException(
                    "Unknown token type: '" + c + "', must be one of [symbol, custom, whitespace, letter, punctuation, digit]"
                );
            }
        }
        return ch -> {
            for (IntPredicate p : any) if (p.test(ch)) return true;
            return false;
        };
    }

    static TokenizerFactory edgeTokenizer(IndexSettings index, Environment env, String name, Settings settings) {
        int min = settings.getAsInt("min_gram", 1);
        int max = settings.getAsInt("max_gram", 2);
        IntPredicate chars = tokenChars(settings);
        return Components.tokenizer(name, () -> chars == null ? new EdgeNGramTokenizer(min, max) : new EdgeNGramTokenizer(min, max) {
            @Override
            protected boolean isTokenChar(int c) {
                return chars.test(c);
            }
        });
    }

    static TokenizerFactory tokenizer(IndexSettings index, Environment env, String name, Settings settings) {
        int min = settings.getAsInt("min_gram", 1);
        int max = settings.getAsInt("max_gram", 2);
        checkDiff(index, min, max, "tokenizer");
        IntPredicate chars = tokenChars(settings);
        return Components.tokenizer(name, () -> {
            Tokenizer t = chars == null ? new NGramTokenizer(min, max) : new NGramTokenizer(min, max) {
                @Override
                protected boolean isTokenChar(int c) {
                    return chars.test(c);
                }
            };
            return t;
        });
    }

    static TokenFilterFactory edgeFilter(IndexSettings index, Environment env, String name, Settings settings) {
        int min = settings.getAsInt("min_gram", 1);
        int max = settings.getAsInt("max_gram", 2);
        boolean preserve = settings.getAsBoolean("preserve_original", false);
        String side = Components.lower(settings, "side", "front");
        boolean back = switch (side) {
            case "front" -> false;
            case "back" -> true;
            default -> throw new IllegalArgumentException("invalid side: [" + side + "], must be either [front] or [back]");
        };
        return Components.filter(name, in -> {
            if (!back) return new EdgeNGramTokenFilter(in, min, max, preserve);
            TokenStream reversed = new ReverseStringFilter(in);
            return new ReverseStringFilter(new EdgeNGramTokenFilter(reversed, min, max, preserve));
        });
    }

    static TokenFilterFactory filter(IndexSettings index, Environment env, String name, Settings settings) {
        int min = settings.getAsInt("min_gram", 1);
        int max = settings.getAsInt("max_gram", 2);
        boolean preserve = settings.getAsBoolean("preserve_original", false);
        checkDiff(index, min, max, "filter");
        return Components.filter(name, in -> new NGramTokenFilter(in, min, max, preserve));
    }

    private static void checkDiff(IndexSettings index, int min, int max, String what) {
        int allowed = index.getMaxNgramDiff();
        if (max - min > allowed) {
            throw new IllegalArgumentException(
                "The difference between max_gram and min_gram in NGram " + what + " must be less than or equal to: ["
                    + allowed + "] but was [" + (max - min) + "]. This limit can be set by changing the ["
                    + IndexSettings.MAX_NGRAM_DIFF_SETTING.getKey() + "] index level setting."
            );
        }
    }
}
