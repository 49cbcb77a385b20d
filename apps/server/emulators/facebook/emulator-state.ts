// TEST-ONLY. What the Facebook emulator knows: users with their Pages, posts and comments, the Messenger
// 24-hour window and private replies, on the network's own clock (PROVIDERS.md §4).

export interface GraphFailure {
  status: number;
  code: number;
  message: string;
  subcode?: number;
  type?: string;
}

/** Meta's error shapes tests ask for (PROVIDERS §3 "Error shape", §4 "Common codes"). */
export const FB_ERRORS = {
  invalidToken: {
    status: 400,
    code: 190,
    subcode: 460,
    type: 'OAuthException',
    message:
      'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
  },
  appRateLimit: { status: 400, code: 4, message: '(#4) Application request limit reached' },
  pageRateLimit: { status: 400, code: 32, message: '(#32) Page request limit reached' },
  callsLimit: { status: 400, code: 613, message: '(#613) Calls to this api have exceeded the rate limit.' },
  tooMany: { status: 429, code: 4, message: '(#4) Application request limit reached' },
  outsideWindow: {
    status: 400,
    code: 10,
    subcode: 2018278,
    type: 'OAuthException',
    message: '(#10) This message is sent outside of allowed window.',
  },
  privateReplyUsed: {
    status: 400,
    code: 10900,
    message: 'Activity already replied to',
  },
} satisfies Record<string, GraphFailure>;

export interface FbPage {
  id: string;
  name: string;
  token: string;
  subscribedFields: string[];
}

export interface FbComment {
  id: string;
  postId: string;
  parentId: string;
  from: { id: string; name: string };
  message: string;
  createdTime: number;
  hidden: boolean;
  likedByPage: boolean;
  deleted: boolean;
}

export interface FbPost {
  id: string;
  pageId: string;
  message: string;
  createdTime: number;
}

export interface SentMessage {
  pageId: string;
  recipient: { id?: string; comment_id?: string };
  text: string;
  mid: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class FacebookNetwork {
  /** The network's clock (ms): the 24-hour window and the 7-day private-reply limit run on it. */
  clock = Date.now();
  readonly pages = new Map<string, FbPage>();
  readonly posts = new Map<string, FbPost>();
  readonly comments = new Map<string, FbComment>();
  readonly sent: SentMessage[] = [];
  /** Pages the consenting user manages; the dialog lists them. */
  userPages: string[] = [];
  user = { id: '10000000001', name: 'Page Admin' };
  /** Permissions the user switches off in the dialog. */
  declined: string[] = [];
  /** Valid tokens: user tokens (short and long) and Page tokens → whose they are. */
  readonly tokens = new Map<
    string,
    { kind: 'user' | 'page'; pageId?: string; long?: boolean; granted?: string[] }
  >();
  readonly codes = new Map<string, string[]>();
  private readonly lastInbound = new Map<string, number>();
  /** Messenger User Profile API: what `GET /{psid}` answers for people who wrote to a Page. */
  readonly profiles = new Map<string, { first_name: string; last_name?: string; profile_pic?: string }>();
  private readonly privateReplied = new Set<string>();
  private seq = 0;

  next(prefix = ''): string {
    this.seq += 1;
    return `${prefix}${Date.now().toString().slice(-6)}${this.seq}`;
  }

  addPage(page: { id: string; name: string }): FbPage {
    const token = `EAAPage${page.id}${this.next()}`;
    const row: FbPage = { ...page, token, subscribedFields: [] };
    this.pages.set(page.id, row);
    this.tokens.set(token, { kind: 'page', pageId: page.id, long: true });
    return row;
  }

  /** Revokes every token of the Page (the admin removed the app): Graph answers 190 from now on. */
  revokePage(pageId: string) {
    for (const [token, owner] of this.tokens) if (owner.pageId === pageId) this.tokens.delete(token);
  }

  addPost(pageId: string, message: string, at = this.clock): FbPost {
    const post: FbPost = { id: `${pageId}_${this.next('1221')}`, pageId, message, createdTime: at };
    this.posts.set(post.id, post);
    return post;
  }

  addComment(post: FbPost, opts: { from: { id: string; name: string }; message: string; parentId?: string }) {
    const comment: FbComment = {
      id: `${post.id.split('_')[1]}_${this.next('1213')}`,
      postId: post.id,
      parentId: opts.parentId ?? post.id,
      from: opts.from,
      message: opts.message,
      createdTime: this.clock,
      hidden: false,
      likedByPage: false,
      deleted: false,
    };
    this.comments.set(comment.id, comment);
    return comment;
  }

  /** A customer wrote to the Page in Messenger: the 24-hour window opens. */
  customerWrote(pageId: string, psid: string) {
    this.lastInbound.set(`${pageId}:${psid}`, this.clock);
  }

  withinWindow(pageId: string, psid: string): boolean {
    const last = this.lastInbound.get(`${pageId}:${psid}`);
    return last !== undefined && this.clock - last <= DAY_MS;
  }

  /** One private reply per comment, within 7 days of it. */
  takePrivateReply(commentId: string): boolean {
    const comment = this.comments.get(commentId);
    if (!comment || this.privateReplied.has(commentId)) return false;
    if (this.clock - comment.createdTime > 7 * DAY_MS) return false;
    this.privateReplied.add(commentId);
    return true;
  }
}
