package contract;

import guest.client.ApiClient;
import guest.client.ApiException;
import guest.client.api.AuthApi;
import guest.client.api.EventsApi;
import guest.client.api.MeApi;
import guest.client.api.SearchApi;
import guest.client.model.CalendarResponse;
import guest.client.model.CaptchaRequest;
import guest.client.model.CaptchaResponse;
import guest.client.model.CategoryResponse;
import guest.client.model.ErrorEnvelope;
import guest.client.model.FeedResponse;
import guest.client.model.LoginRequest;
import guest.client.model.ProfileResponse;
import guest.client.model.RegisterRequest;
import guest.client.model.TokenPairResponse;
import guest.client.model.UpcomingResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

/**
 * A guest's session written against the Java client OpenAPI Generator makes from the live
 * document: registers, logs in, reads the profile, pages the feed with two filters, reads the
 * calendar and the upcoming list with a category filter, and registers a second account with the
 * captcha the server demands. Arguments: the API's base URL, the captcha solver's URL (the check
 * script's stand-in for a person and a browser, as test/support's solvedCaptcha), an email prefix.
 * Exits 1 with the step that failed.
 */
public final class Demo {
  private static final String PASSWORD = "plum harbor lantern 57";

  private final String base;
  private final String solver;
  private final ApiClient client = new ApiClient();
  private final AuthApi auth;
  private String token;
  private boolean captchaDemanded;

  private Demo(String base, String solver) {
    this.base = base;
    this.solver = solver;
    client.updateBaseUri(base);
    client.setRequestInterceptor(b -> {
      if (token != null) b.header("Authorization", "Bearer " + token);
    });
    auth = new AuthApi(client);
  }

  public static void main(String[] args) throws Exception {
    Demo demo = new Demo(args[0], args[1]);
    try {
      demo.run(args[2]);
      System.out.println("java demo: ok");
    } catch (ApiException e) {
      System.err.println("java demo: failed: HTTP " + e.getCode() + " " + e.getResponseBody());
      System.exit(1);
    } catch (IllegalStateException e) {
      System.err.println("java demo: failed: " + e.getMessage());
      System.exit(1);
    }
  }

  private static void check(boolean ok, String what) {
    if (!ok) throw new IllegalStateException(what);
  }

  private void run(String prefix) throws Exception {
    String email = prefix + "-a@example.com";
    register(email);
    TokenPairResponse pair =
        auth.login(AuthApi.APILoginRequest.newBuilder().loginRequest(new LoginRequest().email(email).password(PASSWORD)).build());
    token = pair.getAccessToken();
    System.out.println("java demo: logged in, session " + pair.getSessionId());

    ProfileResponse me = new MeApi(client).getProfile(MeApi.APIGetProfileRequest.newBuilder().lang("en").build());
    check(email.equalsIgnoreCase(me.getEmail()), "the profile is the account's: " + me.getEmail());
    System.out.println("java demo: profile of " + me.getEmail());

    SearchApi search = new SearchApi(client);
    SearchApi.APISearchListingsRequest.Builder feed =
        SearchApi.APISearchListingsRequest.newBuilder().kind("stay").guests(2).limit(5).lang("en");
    FeedResponse first = search.searchListings(feed.build());
    check(first.getItems().size() == 5 && Boolean.TRUE.equals(first.getHasMore()), "a full first page with more");
    FeedResponse second = search.searchListings(feed.cursor(first.getNextCursor()).build());
    check(!second.getItems().isEmpty(), "a second page");
    check(!second.getItems().get(0).getId().equals(first.getItems().get(0).getId()), "the second page is another");
    System.out.println("java demo: feed kind=stay guests=2, two pages of " + first.getItems().size() + " and " + second.getItems().size());

    EventsApi events = new EventsApi(client);
    List<CategoryResponse> categories =
        events.listEventCategories(EventsApi.APIListEventCategoriesRequest.newBuilder().lang("en").build());
    check(!categories.isEmpty(), "event categories");
    List<String> category = List.of(categories.get(0).getCode());
    CalendarResponse calendar =
        events.getEventCalendar(EventsApi.APIGetEventCalendarRequest.newBuilder().category(category).days(14).build());
    check(calendar.getDays().size() == 14, "a 14-day calendar strip");
    UpcomingResponse upcoming = events.listUpcomingEvents(
        EventsApi.APIListUpcomingEventsRequest.newBuilder().category(category).limit(5).withTotal(true).build());
    check(upcoming.getItems() != null, "upcoming items");
    System.out.println("java demo: calendar and upcoming of category " + category.get(0) + ": "
        + upcoming.getItems().size() + " cards, " + upcoming.getTotal() + " events");

    token = null;
    captchaDemanded = false;
    register(prefix + "-b@example.com");
    check(captchaDemanded, "the second registration from this address was asked for a captcha");
    System.out.println("java demo: registered with a captcha pair");
  }

  /** Registers, answering the captcha when the server demands one (403 `captcha_required`). */
  private void register(String email) throws Exception {
    RegisterRequest body = new RegisterRequest().firstName("Anna").lastName("Lee").email(email).password(PASSWORD)
        .acceptTerms(true);
    try {
      auth.register(AuthApi.APIRegisterRequest.newBuilder().registerRequest(body).build());
      return;
    } catch (ApiException e) {
      ErrorEnvelope envelope = client.getObjectMapper().readValue(e.getResponseBody(), ErrorEnvelope.class);
      if (e.getCode() != 403 || !"captcha_required".equals(envelope.getError().getCode())) throw e;
    }
    captchaDemanded = true;
    CaptchaResponse captcha = auth.createCaptcha(
        AuthApi.APICreateCaptchaRequest.newBuilder().captchaRequest(new CaptchaRequest().email(email)).build());
    Map<?, ?> solved = solve(captcha.getCaptchaId().toString());
    auth.register(AuthApi.APIRegisterRequest.newBuilder().registerRequest(body
        .captchaId(captcha.getCaptchaId().toString())
        .captchaAnswer(String.valueOf(solved.get("answer")))
        .captchaNonce(String.valueOf(solved.get("nonce")))).build());
  }

  /** The answer and the proof-of-work nonce, from the check script's solver. */
  private Map<?, ?> solve(String captchaId) throws Exception {
    HttpResponse<String> res = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(solver + "/" + captchaId)).build(), HttpResponse.BodyHandlers.ofString());
    check(res.statusCode() == 200, "the solver knows captcha " + captchaId);
    return client.getObjectMapper().readValue(res.body(), Map.class);
  }
}
