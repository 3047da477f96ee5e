package guest.analysis;

import java.util.List;
import java.util.function.Supplier;

import org.elasticsearch.Build;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.xcontent.XContentBuilder;

/**
 * {@code GET /} (and {@code HEAD /}) with the body a full distribution's rest-root module gives:
 * node and cluster name, cluster UUID, version block, tagline. The Maven Central distribution lacks
 * that module, and clients ask this endpoint for the engine's version ({@code client.info()}).
 */
final class RootHandler extends BaseRestHandler {
    private final Supplier<ClusterService> clusterService;

    RootHandler(Supplier<ClusterService> clusterService) {
        this.clusterService = clusterService;
    }

    @Override
    public String getName() {
        return "guest_analysis_root_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(RestRequest.Method.GET, "/"), new Route(RestRequest.Method.HEAD, "/"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        ClusterService cs = clusterService.get();
        return channel -> {
            if (request.method() == RestRequest.Method.HEAD) {
                channel.sendResponse(new RestResponse(RestStatus.OK, XContentBuilderEmpty.TYPE, ""));
                return;
            }
            Build build = Build.current();
            XContentBuilder b = channel.newBuilder();
            b.startObject();
            b.field("name", cs == null ? "" : cs.getNodeName());
            b.field("cluster_name", cs == null ? "" : cs.getClusterName().value());
            b.field("cluster_uuid", cs == null ? "_na_" : cs.state().metadata().clusterUUID());
            b.startObject("version")
                .field("number", build.qualifiedVersion())
                .field("build_flavor", build.flavor())
                .field("build_type", build.type().displayName())
                .field("build_hash", build.hash())
                .field("build_date", build.date())
                .field("build_snapshot", build.isSnapshot())
                .field("lucene_version", org.apache.lucene.util.Version.LATEST.toString())
                .field("minimum_wire_compatibility_version", build.minWireCompatVersion())
                .field("minimum_index_compatibility_version", build.minIndexCompatVersion())
                .endObject();
            b.field("tagline", "You Know, for Search");
            b.endObject();
            channel.sendResponse(new RestResponse(RestStatus.OK, b));
        };
    }

    /** Content type of an empty HEAD answer. */
    private static final class XContentBuilderEmpty {
        static final String TYPE = "application/json; charset=UTF-8";
    }
}
