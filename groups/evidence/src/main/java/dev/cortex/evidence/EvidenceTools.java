package dev.cortex.evidence;

import dev.cortex.base.ErrorCodes;
import dev.cortex.evidence.Inputs.CriterionInput;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHandler;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.storage.StorageBusyException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The evidence group's ledger tools: adapters from validated arguments to the {@link Ledger}. */
final class EvidenceTools {
  private final Ledger ledger;

  EvidenceTools(Ledger ledger) {
    this.ledger = ledger;
  }

  /** The range of times the ledger's fixed-width timestamps can hold. */
  private static final Instant EARLIEST = Instant.parse("0000-01-01T00:00:00Z");

  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

  private static final ToolHints APPEND = new ToolHints(false, false, false, false);

  List<ToolSpec> specs() {
    return List.of(
        createClaim(),
        addEvidence(),
        trackAssumption(),
        updateAssumption(),
        review(),
        getContext());
  }

  /** Maps a busy database to UNAVAILABLE: the call can be retried, nothing was written. */
  private static ToolHandler guarded(ToolHandler handler) {
    return call -> {
      try {
        return handler.handle(call);
      } catch (StorageBusyException e) {
        throw new ToolException(
            ErrorCodes.UNAVAILABLE,
            "The ledger database is busy in another process; nothing was written. Retry shortly.");
      }
    };
  }

  private static Instant now(ToolCall call) {
    return call.context().clock().instant();
  }

  ToolSpec createClaim() {
    return ToolSpec.builder("cortex_create_claim", guarded(this::createClaim))
        .title("Create a claim")
        .description(
            "Registers a claim with 1 to 32 verification criteria in a project. Criterion keys must be unique"
                + " within the claim and at least one criterion must be required. Returns the claim ID, each"
                + " criterion's ID and status 'unverified'. A new project starts under policy strict-1."
                + " Use it before the work it claims, so that the criteria say up front what would"
                + " verify it; then attach evidence with cortex_add_evidence and evaluate with"
                + " cortex_review.")
        .input(
            Schema.object()
                .required("project_id", Inputs.projectId())
                .required(
                    "statement",
                    Inputs.text(
                        "What the claim asserts, as one plain sentence (up to 4000 characters), e.g."
                            + " 'The login endpoint rejects expired tokens.'",
                        4000))
                .required(
                    "criteria",
                    Schema.array(
                        "1 to 32 criteria that would verify the claim, each a key, a description and"
                            + " whether it is required.",
                        Schema.object()
                            .required(
                                "key",
                                Schema.pattern(
                                    "Short key, unique within the claim: letters, digits, '.', '_'"
                                        + " and '-', up to 64, e.g. 'negative-test'.",
                                    "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"))
                            .required(
                                "description",
                                Inputs.text(
                                    "What would satisfy the criterion, in a sentence (up to 2000"
                                        + " characters).",
                                    2000))
                            .optional(
                                "required",
                                Schema.withDefault(
                                    Schema.bool(
                                        "Whether the claim needs this criterion to verify; at"
                                            + " least one criterion must be required."),
                                    true))
                            .build(),
                        1,
                        Inputs.MAX_CRITERIA,
                        false))
                .build())
        .output(OutputSchemas.createdClaim())
        .hints(APPEND)
        .blocking()
        .build();
  }

  private Object createClaim(ToolCall call) {
    Inputs.CreateClaim args = call.arguments(Inputs.CreateClaim.class);
    Set<String> keys = new HashSet<>();
    for (CriterionInput criterion : args.criteria()) {
      if (!keys.add(criterion.key())) {
        throw ToolException.invalidArgument(
            "Criterion key '"
                + criterion.key()
                + "' appears twice; keys must be unique within a claim.");
      }
    }
    if (args.criteria().stream().noneMatch(CriterionInput::isRequired)) {
      throw ToolException.invalidArgument("At least one criterion must be required.");
    }
    return ledger.createClaim(args.projectId(), args.statement(), args.criteria(), now(call));
  }

  ToolSpec addEvidence() {
    return ToolSpec.builder("cortex_add_evidence", guarded(this::addEvidence))
        .title("Add evidence")
        .description(
            "Records evidence for a claim, linked to one of its criteria or (without criterion_id) to the"
                + " claim as a whole. The relation, origin and digest are as the caller reports them: the result"
                + " carries assurance 'unverified_origin'. Call cortex_review afterwards to evaluate the claim."
                + " It records what was observed; it does not run or check anything (a person records a"
                + " test run as a receipt with cortex collect-test).")
        .input(
            Schema.object()
                .required("project_id", Inputs.projectId())
                .required(
                    "claim_id",
                    Inputs.recordId(
                        "The claim's ID, as cortex_create_claim returned it (a UUID), in this"
                            + " project."))
                .optional(
                    "criterion_id",
                    Inputs.recordId(
                        "The ID of one of that claim's criteria (from cortex_create_claim); omit to"
                            + " attach the evidence to the claim as a whole."))
                .required(
                    "content_summary",
                    Inputs.text(
                        "What the evidence shows, in plain words (up to 4000 characters), e.g. '12"
                            + " of 12 integration tests passed'.",
                        4000))
                .required(
                    "relation",
                    Schema.enumOf(
                        "How it bears on the claim or criterion: supports, contradicts or neutral.",
                        WireName.values(Relation.class)))
                .optional(
                    "origin",
                    Schema.withDefault(
                        Schema.enumOf(
                            "Who produced it, as you report it: agent_reported (you saw or did"
                                + " it), user_attested (a person told you), tool_output_recorded (a"
                                + " tool's own output, copied). Only the project's policy decides"
                                + " what counts.",
                            WireName.values(Origin.class)),
                        "agent_reported"))
                .required(
                    "source_type",
                    Schema.enumOf(
                        "What kind of source it comes from: test, build, log, document,"
                            + " manual_observation or other.",
                        WireName.values(SourceType.class)))
                .optional(
                    "source_ref",
                    Inputs.text(
                        "Where to find the source again, up to 2000 characters: a command, a URL,"
                            + " a file path, e.g. 'pnpm test:integration'.",
                        2000))
                .optional(
                    "collector",
                    Inputs.text(
                        "Who or what collected it, up to 200 characters, e.g. 'ci' or the agent's"
                            + " name.",
                        200))
                .optional(
                    "artifact_digest",
                    Schema.pattern(
                        "SHA-256 of the artifact: 64 hexadecimal characters.", "^[0-9a-fA-F]{64}$"))
                .optional(
                    "observed_at",
                    Schema.withExamples(
                        Schema.withFormat(
                            Schema.string("When it was observed, ISO 8601 with offset.", 1, 64),
                            "date-time"),
                        "2026-11-05T00:00:00Z"))
                .build())
        .output(OutputSchemas.evidence())
        .hints(APPEND)
        .blocking()
        .build();
  }

  private Object addEvidence(ToolCall call) {
    Inputs.AddEvidence a = call.arguments(Inputs.AddEvidence.class);
    Instant observed = null;
    if (a.observedAt() != null) {
      try {
        observed = OffsetDateTime.parse(a.observedAt()).toInstant();
        if (observed.isBefore(EARLIEST) || observed.isAfter(LATEST)) {
          throw ToolException.invalidArgument(
              "observed_at must fall between the years 0000 and 9999 (UTC); got '"
                  + a.observedAt()
                  + "'.");
        }
      } catch (DateTimeParseException e) {
        throw ToolException.invalidArgument(
            "observed_at must be an ISO 8601 time with offset, e.g. 2026-11-05T00:00:00Z; got '"
                + a.observedAt()
                + "'.");
      }
    }
    Records.Evidence evidence =
        new Records.Evidence(
            null,
            a.projectId(),
            a.claimId(),
            a.criterionId(),
            a.contentSummary(),
            WireName.parse(Relation.class, a.relation()),
            a.origin() == null ? Origin.AGENT_REPORTED : WireName.parse(Origin.class, a.origin()),
            WireName.parse(SourceType.class, a.sourceType()),
            a.sourceRef(),
            a.collector(),
            a.artifactDigest() == null ? null : a.artifactDigest().toLowerCase(Locale.ROOT),
            observed,
            now(call));
    return ledger.addEvidence(evidence);
  }

  ToolSpec trackAssumption() {
    return ToolSpec.builder("cortex_track_assumption", guarded(this::trackAssumption))
        .title("Track an assumption")
        .description(
            "Starts tracking an assumption in a project, with optional context and a caller-reported confidence"
                + " between 0 and 1. Its status starts as 'unverified'. Can create the project (policy strict-1)."
                + " Use it for what the work takes for granted and has not checked; change its status"
                + " with cortex_update_assumption as you learn more.")
        .input(
            Schema.object()
                .required("project_id", Inputs.projectId())
                .required(
                    "statement",
                    Inputs.text(
                        "What is being assumed, as one plain sentence (up to 4000 characters), e.g."
                            + " 'The staging database mirrors production's schema.'",
                        4000))
                .optional(
                    "context",
                    Inputs.text(
                        "Why it matters or where it came from, in plain words (up to 4000"
                            + " characters).",
                        4000))
                .optional(
                    "confidence",
                    Schema.number(
                        "How sure you are, from 0 (not at all) to 1 (certain); kept as reported.",
                        0,
                        1))
                .build())
        .output(OutputSchemas.trackedAssumption())
        .hints(APPEND)
        .blocking()
        .build();
  }

  private Object trackAssumption(ToolCall call) {
    Inputs.TrackAssumption a = call.arguments(Inputs.TrackAssumption.class);
    return ledger.trackAssumption(
        a.projectId(), a.statement(), a.context(), a.confidence(), now(call));
  }

  ToolSpec updateAssumption() {
    return ToolSpec.builder("cortex_update_assumption", guarded(this::updateAssumption))
        .title("Update an assumption")
        .description(
            "Records the caller's new assessment of an assumption with a reason. Each update keeps the previous"
                + " and new status, the reason and the time; the status can then be referenced in decision reviews."
                + " Use it when something confirms, refutes or muddies an assumption tracked with"
                + " cortex_track_assumption.")
        .input(
            Schema.object()
                .required("project_id", Inputs.projectId())
                .required(
                    "assumption_id",
                    Inputs.recordId(
                        "The assumption's ID, as cortex_track_assumption returned it (a UUID), in"
                            + " this project."))
                .required(
                    "status",
                    Schema.enumOf(
                        "The assumption's status from now on: unverified, supported, refuted or"
                            + " inconclusive.",
                        WireName.values(AssumptionStatus.class)))
                .required(
                    "reason",
                    Inputs.text(
                        "Why the status changes, in plain words (up to 4000 characters): what was"
                            + " learnt, and from where.",
                        4000))
                .build())
        .output(OutputSchemas.updatedAssumption())
        .hints(APPEND)
        .blocking()
        .build();
  }

  private Object updateAssumption(ToolCall call) {
    Inputs.UpdateAssumption a = call.arguments(Inputs.UpdateAssumption.class);
    return ledger.updateAssumption(
        a.projectId(),
        a.assumptionId(),
        WireName.parse(AssumptionStatus.class, a.status()),
        a.reason(),
        now(call));
  }

  ToolSpec review() {
    return ToolSpec.builder("cortex_review", guarded(this::review))
        .title("Review a claim or decision")
        .description(
            "Evaluates a claim (target_type 'claim', target_id) or a proposed decision (target_type 'decision',"
                + " a decision statement and 1 to 16 unique IDs in claim_ids and/or assumption_ids) under the"
                + " project's policy, and saves the result as a snapshot. Returns the review ID, policy version,"
                + " status, claim evaluations and findings ordered by severity, rule ID and record IDs. Decision"
                + " reviews are advisory. Use it after adding evidence, and before acting on a decision;"
                + " to read back a project's records and earlier reviews without evaluating"
                + " anything, use cortex_get_context.")
        .input(
            Schema.object()
                .required("project_id", Inputs.projectId())
                .required(
                    "target_type",
                    Schema.enumOf(
                        "claim: evaluate one claim (give target_id); decision: review a proposed"
                            + " decision against the claims and assumptions it rests on (give"
                            + " decision and claim_ids and/or assumption_ids).",
                        "claim",
                        "decision"))
                .optional(
                    "target_id",
                    Inputs.recordId(
                        "target_type claim only: the claim's ID (from cortex_create_claim)."))
                .optional(
                    "decision",
                    Inputs.text(
                        "target_type decision only: the proposed decision as a sentence (up to 4000"
                            + " characters), e.g. 'Ship the release today.'",
                        4000))
                .optional(
                    "claim_ids",
                    Inputs.ids(
                        "target_type decision only: IDs of the claims the decision relies on, 1 to"
                            + " 16, each once."))
                .optional(
                    "assumption_ids",
                    Inputs.ids(
                        "target_type decision only: IDs of the assumptions the decision relies on,"
                            + " 1 to 16, each once."))
                .build())
        .output(OutputSchemas.review())
        .hints(APPEND)
        .blocking()
        .build();
  }

  private Object review(ToolCall call) {
    Inputs.Review a = call.arguments(Inputs.Review.class);
    List<String> claims = a.claimIds() == null ? List.of() : a.claimIds();
    List<String> assumptions = a.assumptionIds() == null ? List.of() : a.assumptionIds();
    if (a.targetType().equals("claim")) {
      if (a.targetId() == null) {
        throw ToolException.invalidArgument("A claim review needs target_id, the claim to review.");
      }
      if (a.decision() != null || !claims.isEmpty() || !assumptions.isEmpty()) {
        throw ToolException.invalidArgument(
            "A claim review takes target_id only; decision, claim_ids and assumption_ids belong to decision reviews.");
      }
      return ledger.reviewClaim(a.projectId(), a.targetId(), now(call));
    }
    if (a.targetId() != null) {
      throw ToolException.invalidArgument(
          "A decision review takes no target_id; list the records in claim_ids and assumption_ids.");
    }
    if (a.decision() == null) {
      throw ToolException.invalidArgument("A decision review needs a decision statement.");
    }
    if (claims.isEmpty() && assumptions.isEmpty()) {
      throw ToolException.invalidArgument(
          "A decision review needs at least one ID in claim_ids or assumption_ids.");
    }
    return ledger.reviewDecision(a.projectId(), a.decision(), claims, assumptions, now(call));
  }

  ToolSpec getContext() {
    return ToolSpec.builder("cortex_get_context", guarded(this::getContext))
        .title("Recover project context")
        .description(
            "Returns the requested collections of a project (claims, assumptions, assumption_events, evidence,"
                + " reviews, test_runs), newest first with descending record IDs breaking ties, 1 to 20 records"
                + " each (default 20). A project with no records gives empty arrays. Use it to pick up"
                + " a project's state after a restart or in a new session; it evaluates nothing (a"
                + " fresh evaluation is cortex_review).")
        .input(
            Schema.object()
                .required("project_id", Inputs.projectId())
                .required(
                    "include",
                    Schema.array(
                        "Which collections to return, each once: claims, assumptions,"
                            + " assumption_events, evidence, reviews, test_runs.",
                        Schema.enumOf(
                            "A collection to return, by name.",
                            ContextReader.COLLECTIONS.toArray(String[]::new)),
                        1,
                        ContextReader.COLLECTIONS.size(),
                        true))
                .optional(
                    "limit",
                    Schema.withDefault(
                        Schema.integer(
                            "The most records per collection, newest first.", 1, Inputs.MAX_LIMIT),
                        Inputs.MAX_LIMIT))
                .build())
        .output(OutputSchemas.context())
        .hints(new ToolHints(true, false, true, false))
        .blocking()
        .build();
  }

  private Object getContext(ToolCall call) {
    Inputs.GetContext a = call.arguments(Inputs.GetContext.class);
    int limit = a.limit() == null ? Inputs.MAX_LIMIT : a.limit();
    return ledger.database().read(c -> ContextReader.read(c, a.projectId(), a.include(), limit));
  }
}
